-- Adherence settings for studies created before them: a valid day is 10 h of heart-rate data,
-- 2 days without a sync puts a participant at risk, no reminders. Written into each row so every
-- reader of the settings, SQL or not, sees the keys.
UPDATE "studies" SET "settings" = '{"validDayMinHours": 10, "riskNoSyncDays": 2, "reminderNoSyncDays": null}'::jsonb || "settings"
  WHERE NOT ("settings" ? 'validDayMinHours');
