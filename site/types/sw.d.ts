// For tsconfig.sw.json: site/web/sw.js runs as a service worker, whose global scope TypeScript's
// WebWorker library types as a plain worker's; and site/build.py fills in its two placeholders.

/** The build's version (build.json's "version"). */
declare const __VERSION__: string;
/** Every file of the build, relative to the site (the service worker's precache list). */
declare const __FILES__: string[];

interface WorkerGlobalScope {
  readonly clients: Clients;
  skipWaiting(): Promise<void>;
  addEventListener<K extends keyof ServiceWorkerGlobalScopeEventMap>(
    type: K,
    listener: (this: WorkerGlobalScope, ev: ServiceWorkerGlobalScopeEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
}
