export { freePort } from './ports.js';
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
