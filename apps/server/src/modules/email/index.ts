export { emailRoutes as routes } from './email.routes.js';
export { createEmailService, type EmailService } from './email.service.js';
export { recordPlatformMailing } from './platform-mailings.js';
