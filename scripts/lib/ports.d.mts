/** A TCP port free on host (127.0.0.1 by default) right now; never one already in avoid (which gets it added). */
export declare function freePort(avoid?: Set<number>, host?: string): Promise<number>;
