export {
  liveConnectionsOfStudy,
  reauthorizeUrl,
  type StudyConnection,
} from './study-connections.js';
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
