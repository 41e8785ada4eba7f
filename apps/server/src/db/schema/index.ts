export * from './applications.js';
export * from './auth.js';
export * from './platform.js';
export * from './studies.js';
