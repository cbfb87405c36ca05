export { startTcpFront, type TcpFront } from './front.js';
export {
  type EventsNaming,
  eventsNaming,
  type NatsCredentials,
  natsCredentials,
} from './nats-credentials.js';
export {
  type NatsCluster,
  type NatsClusterNode,
  type NatsClusterOptions,
  type NatsServer,
  type NatsServerOptions,
  startNatsCluster,
  startNatsServer,
} from './nats-server.js';
export { freePort } from './ports.js';
export {
  type PostgresCluster,
  type PostgresClusterOptions,
  startPostgresCluster,
} from './postgres-cluster.js';
export {
  DEFAULT_PORTS,
  type Ports,
  REPO_ROOT,
  SERVICES,
  type ServiceName,
  type Stack,
  type StackOptions,
  startStack,
} from './stack.js';
