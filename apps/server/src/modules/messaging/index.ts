export {
  createMessaging,
  DELIVERY_CONCURRENCY,
  type DeliveryError,
  type Messaging,
  type MessagingDeps,
  type OutboundPayload,
} from './messaging.service.js';
