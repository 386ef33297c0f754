/** A TCP port free on host (127.0.0.1 by default) right now; never one already in avoid (which gets it added). */
export declare function freePort(avoid?: Set<number>, host?: string): Promise<number>;
/** The first of count consecutive ports all free on 127.0.0.1, in 20000-39999. */
export declare function freePortRun(count: number): Promise<number>;
