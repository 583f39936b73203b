// A computer's turn: wait out the pace, ask the game service for the move, and hand it over unless
// the game changed meanwhile (undo, new game, pause, another line-up: each calls stop, which cancels
// the search in the worker, so the player's own request is answered at once). Any game's page can
// use it.

export class ComputerTurns {
  /** @param {import("./rpc.js").WorkerClient} client */
  constructor(client) {
    this.client = client;
    this.timer = null;
    this.token = 0;
    this.thinking = false;
    this.callId = null; // the worker call under way
  }

  /** Forget the turn under way: the worker abandons its search, a reply still to come is dropped. */
  stop() {
    clearTimeout(this.timer);
    this.token++;
    this.thinking = false;
    if (this.callId !== null) this.client.cancel(this.callId);
    this.callId = null;
  }

  /**
   * After ``wait`` ms, call the service with ``request()`` ({op, args}, built then), and pass the
   * reply to ``done(null, move)`` or the failure to ``done(error)``, if the turn is still current.
   */
  begin(wait, request, done) {
    this.stop();
    const token = ++this.token;
    this.thinking = true;
    this.timer = setTimeout(async () => {
      if (token !== this.token) return;
      const { op, args } = request();
      const { id, reply } = this.client.send(op, args);
      this.callId = id;
      let move;
      try {
        move = await reply;
      } catch (error) {
        if (token !== this.token) return;
        this.callId = null;
        this.thinking = false;
        done(error);
        return;
      }
      if (token !== this.token) return;
      this.callId = null;
      this.thinking = false;
      done(null, move);
    }, wait);
  }
}
