// A computer's turn: wait out the pace, ask the game service for the move, and hand it over unless
// the game changed meanwhile (undo, new game, pause, another line-up: each calls stop). Any game's
// page can use it.

export class ComputerTurns {
  /** @param {import("./rpc.js").WorkerClient} client */
  constructor(client) {
    this.client = client;
    this.timer = null;
    this.token = 0;
    this.thinking = false;
  }

  /** Forget the turn under way; a reply still to come is dropped. */
  stop() {
    clearTimeout(this.timer);
    this.token++;
    this.thinking = false;
  }

  /**
   * After ``wait`` ms, call the service with ``request()`` ({op, args}, built then), and pass the
   * reply to ``done(null, move)`` or the failure to ``done(error)``, if the turn is still current.
   */
  begin(wait, request, done) {
    clearTimeout(this.timer);
    const token = ++this.token;
    this.thinking = true;
    this.timer = setTimeout(async () => {
      if (token !== this.token) return;
      const { op, args } = request();
      let move;
      try {
        move = await this.client.call(op, args);
      } catch (error) {
        if (token !== this.token) return;
        this.thinking = false;
        done(error);
        return;
      }
      if (token !== this.token) return;
      this.thinking = false;
      done(null, move);
    }, wait);
  }
}
