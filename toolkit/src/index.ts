// Server-only utilities shared by the gateway and the web app (decision 038).
export { coalesce, type CoalesceOptions } from './coalesce.js';
export { InFlight } from './in-flight.js';
