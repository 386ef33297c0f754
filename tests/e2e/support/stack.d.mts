/** Types of stack.mjs (plain JavaScript so scripts/bench-web.mjs can use it too). */

export declare const ROOT: string;
export declare const GATEWAY_ENTRY: string;
export declare const WEB_ENTRY: string;
/** The web server (server/ compiled to build/server/main.js) that runs the Remix build. */
export declare const WEB_SERVER: string;
export declare const ADMIN: { email: string; password: string; username: string; phone: string };
export declare const STACK_FILE_ENV: 'E2E_STACK_FILE';

/** What tests need to know about a running stack (JSON-serialisable: it crosses process boundaries). */
export interface StackInfo {
  webUrl: string;
  gatewayUrl: string;
  gatewayPort: number;
  webPort: number;
  dataDir: string;
  /** The build snapshot it runs from. */
  buildDir: string;
  gatewayLog: string;
  webLog: string;
  /** Process group ids, so globalTeardown (another module instance) can end them. */
  pids: number[];
  /** The web server's process id (its RSS can be read from /proc). */
  webPid: number;
  admin: typeof ADMIN;
}

export interface StackOptions {
  /** A snapshotBuild() directory to run from; default: a snapshot of its own, removed on stop(). */
  buildDir?: string;
  /** Where the two logs go (created); default a fresh dir under test-results. */
  logDir?: string;
  /** Extra gateway environment (e.g. SEED_DEMO). */
  gatewayEnv?: Record<string, string>;
  webEnv?: Record<string, string>;
  label?: string;
  /** Fixed ports instead of free ones (gateway default: webPort + 1). */
  webPort?: number;
  gatewayPort?: number;
}

export declare function requireBuild(): void;
export declare function snapshotBuild(): string;
export { freePort } from '../../../scripts/lib/ports.mjs';
export { killGroup } from '../../../scripts/lib/processes.mjs';
export declare function sharedStack(): StackInfo;

/** A running stack with handles to stop and restart its gateway (same port and data dir). */
export declare class Stack {
  private constructor();
  readonly info: StackInfo;
  static start(options?: StackOptions): Promise<Stack>;
  /** (Re)starts the gateway on the stack's port and data dir and waits for /healthz. */
  startGateway(): Promise<void>;
  stopGateway(): Promise<void>;
  /** One more web server on this stack's build and data dir, with environment overrides; stopped with the stack. */
  startExtraWeb(env?: Record<string, string>): Promise<{ url: string; pid: number; log: string }>;
  /** Ends both processes and removes the data dir (and its own build snapshot). */
  stop(): Promise<void>;
}
