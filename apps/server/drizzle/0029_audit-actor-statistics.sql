-- Who acted and in which study are far from independent: a team member's events are nearly all in
-- their study, their sign-ins in none. Without this the planner takes "one person's sign-ins in the
-- last 30 days" for thousands of rows and walks the whole time index instead of the actor's own.
CREATE STATISTICS IF NOT EXISTS "audit_events_study_actor_stats" (mcv, dependencies) ON "study_id", "actor_id" FROM "audit_events";--> statement-breakpoint
ANALYZE "audit_events";
