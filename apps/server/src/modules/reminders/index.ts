/** Adherence alerts: the members' daily digest, the participants' reminders and their stop link. */
export { remindersRoutes as routes } from './reminders.routes.js';
export { createRemindersService, type RemindersService } from './reminders.service.js';
