import { finished } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Work that must not delay an answer, nor show in its timing (decision 030: password reset mails). */
export interface AfterAnswer {
  /** Runs task once this request's answer has been sent (or its client has gone); its errors are logged. */
  run(reply: FastifyReply, task: () => Promise<void>): void;
  /** Resolves when every task scheduled so far has ended: closing waits for it before the database goes. */
  settled(): Promise<void>;
  /**
   * Resolves when no request is being answered, or after at most `capMs` (so work waiting for a quiet
   * moment still moves under constant load): background work done a slice at a time yields to answers.
   */
  quiet(capMs: number): Promise<void>;
}

/** Something the app started that must stop before the database closes (the sweeper, the notifier). */
export interface Stoppable {
  stop(): Promise<void>;
}

/** The requests whose handlers have not answered yet, and whether the app is closing. */
export interface InFlight {
  count: number;
  closing: boolean;
  readonly counted: WeakSet<object>;
  /** Called (and dropped) when the count next falls to 0. */
  readonly waiting: (() => void)[];
}

/**
 * Counts each request from its first hook (and names it in x-request-id): closing waits for the
 * count. Call first, so this onRequest hook runs before every other. Callback-style hooks: they run
 * on every request, and an async hook costs a promise each time.
 */
export function countRequests(app: FastifyInstance): InFlight {
  const inFlight: InFlight = { count: 0, closing: false, counted: new WeakSet<object>(), waiting: [] };
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    inFlight.count += 1;
    inFlight.counted.add(request);
    done();
  });
  return inFlight;
}

/**
 * Closing: stops what the app started (in the order given), then closes the database only after the
 * handlers still running have answered (even to clients that already hung up) and the work after
 * their answers has ended, so a shutdown never turns a request in flight into a "driver destroyed" error.
 */
export function closeGracefully(app: FastifyInstance, inFlight: InFlight, started: Stoppable[]): void {
  app.addHook('preClose', async () => {
    inFlight.closing = true;
    for (const one of started) await one.stop();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (inFlight.counted.delete(request)) {
      inFlight.count -= 1;
      if (inFlight.count === 0 && inFlight.waiting.length > 0) for (const wake of inFlight.waiting.splice(0)) wake();
    }
    // A keep-alive connection that was busy when closing began would otherwise hold the server open.
    if (inFlight.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A write's answer waits out the generation lease of the commits before it (PostgreSQL, decision 023);
  // a read's only when something committed a bump while it was answered (its own lazy release, say:
  // the next read must see it, as slots-rules.test.ts's "registeredTeams follows a lazy release" does).
  app.addHook('onSend', (request, reply, payload, done) => {
    const read = request.method === 'GET' || request.method === 'HEAD';
    const settled = app.store.settleWrites(read ? performance.now() - reply.elapsedTime : undefined);
    if (settled) settled.then(() => done(null, payload), done);
    else done(null, payload);
  });
  app.decorate('afterAnswer', afterAnswer(inFlight));
  app.addHook('onClose', async () => {
    // Real time (timers): a fake clock in a test must not hold a shutdown open.
    const deadline = Date.now() + 10_000;
    while (inFlight.count > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([app.afterAnswer.settled(), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
    await app.store.close();
  });
}

function afterAnswer(inFlight: InFlight): AfterAnswer {
  const pending = new Set<Promise<void>>();
  return {
    run(reply, task) {
      const run: Promise<void> = new Promise<void>((resolve) => finished(reply.raw, () => resolve()))
        .then(task)
        .catch((err) => reply.log.error({ err }, 'work after the answer failed'))
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    quiet(capMs) {
      // Quiet now: still a turn of the event loop first, so a request that has just arrived gets in.
      if (inFlight.count === 0 || inFlight.closing) return new Promise<void>((resolve) => setImmediate(resolve));
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, capMs);
        function done() {
          clearTimeout(timer);
          const at = inFlight.waiting.indexOf(done);
          if (at >= 0) inFlight.waiting.splice(at, 1);
          resolve();
        }
        inFlight.waiting.push(done);
      });
    },
  };
}
