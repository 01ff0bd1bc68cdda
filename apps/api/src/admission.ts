import type { FastifyInstance } from 'fastify';

/**
 * Fair admission: at most `perTurn` requests start their work in one turn of the event loop,
 * the others wait their turn in arrival order.
 *
 * Why: libuv accepts one new connection per turn of the loop (since libuv 1.45 it no longer
 * accepts in a loop). A request on the embedded database runs whole inside the turn that
 * read it, so under load one turn served every ready connection (200 connections x 2 ms =
 * 400 ms) and a new connection waited 200 turns, over a minute, to be accepted: the load
 * run's 200 connections got 10 s timeouts while the requests the server did see took under
 * 0.6 s. With a few starts per turn, turns stay short, every connection is accepted within
 * seconds and served in the order it arrived (bench: 0 timeouts at 200 connections).
 */
export function fairAdmission(app: FastifyInstance, perTurn: number): void {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const admitSome = () => {
    scheduled = false;
    for (let started = 0; started < perTurn && waiting.length > 0; started++) waiting.shift()!();
    // An immediate queued while immediates run waits for the next turn: the loop polls
    // (accepts, reads) in between.
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(admitSome);
  };
  app.addHook('onRequest', (request, reply, done) => {
    waiting.push(() => {
      // Answered meanwhile (its deadline's 503) or abandoned by the client: no work to start.
      if (reply.sent || request.raw.destroyed) return;
      done();
    });
    schedule();
  });
}
