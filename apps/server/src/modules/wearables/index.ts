export {
  connectionsFingerprint,
  connectionsOfStudy,
  type StudyConnection,
} from './device-sync.js';
export { liveConnectionsOfStudy, reauthorizeUrl } from './study-connections.js';
export { bindTokensToParticipants } from './token-binding.js';
export { connectionStateOf, connectionsOfHealthUser } from './wearables.repository.js';
export { wearablesRoutes as routes } from './wearables.routes.js';
export {
  type CollectionTarget,
  createWearablesService,
  type ParticipantRef,
  revokeStudyGrants,
  type WearablesService,
} from './wearables.service.js';
