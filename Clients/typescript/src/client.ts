// The ScrollStack Server client for browsers, design-tool plug-ins and Node 18+: every operation
// of the contract as a typed method (generated into openapi.ts), plus live events.
// No dependencies: it needs only `fetch`, `Headers`, `TextDecoder` and `AbortSignal`.
import { ScrollStackOperations, OperationID, Reply, operations } from "./openapi.js";
import type { Error as ErrorAnswer } from "./openapi.js";

export * from "./openapi.js";

export interface ClientOptions {
  /** The server's address, e.g. `http://127.0.0.1:8080` (no trailing path). */
  baseURL: string;
  /** A token of the server's `--tokens`/`--token-file`, sent as `Authorization: Bearer`. */
  token?: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** A refused request: the HTTP status and the service's JSON error (`code`, `field`, `message`). */
export class ScrollStackError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly answer: unknown;

  constructor(status: number, answer: unknown) {
    const error = (answer as Partial<ErrorAnswer> | undefined)?.error;
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
    this.name = "ScrollStackError";
    this.status = status;
    this.code = error?.code ?? "http_" + status;
    this.field = error?.field ?? undefined;
    this.answer = answer;
  }
}

/** One message of a live event stream: the revision it brings and its events. */
export interface StreamMessage {
  revision: number;
  events: unknown[];
}

export interface FollowOptions {
  /** Resume after this revision (sent as `Last-Event-ID`); default: from now on. */
  after?: number;
  /** Ends the stream (and any reconnection) when aborted. */
  signal?: AbortSignal;
  /** Reconnects after a dropped connection, resuming after the last revision seen (default true). */
  reconnect?: boolean;
  /** How long to wait before reconnecting, in milliseconds (default 1000). */
  retryMilliseconds?: number;
}

type CallArgs = Parameters<ScrollStackOperations["call"]>[1];

/**
 * The client. `new ScrollStackClient({baseURL, token})`, then one method per operation, named
 * as the contract's `operationId` (`createStack`, `insertRows`, `getLayout`, `getLayoutSVG` …),
 * each taking `{path, query, headers, body}` and answering `{status, etag, headers, body}` or
 * throwing `ScrollStackError`. `follow` and `followPile` read live events.
 */
export class ScrollStackClient extends ScrollStackOperations {
  private readonly base: string;
  private readonly token: string | undefined;
  private readonly send: typeof fetch;

  constructor(options: ClientOptions) {
    super();
    this.base = options.baseURL.replace(/\/+$/, "");
    this.token = options.token;
    this.send = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The URL of an operation with these parameters (path segments encoded one by one). */
  url(id: OperationID, args: CallArgs = {}): string {
    const operation = operations[id];
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = args.path?.[name];
      if (value === undefined) throw new TypeError(`${id}: path parameter ${name} is missing`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const name of operation.query as readonly string[]) {
      const value = args.query?.[name];
      if (value === undefined || value === null) continue;
      query.set(name, Array.isArray(value) ? value.join(",") : String(value));
    }
    const text = query.toString();
    return this.base + path + (text ? "?" + text : "");
  }

  protected async call(id: OperationID, args: CallArgs): Promise<Reply<unknown>> {
    const operation = operations[id];
    const headers = new Headers();
    if (this.token) headers.set("Authorization", `Bearer ${this.token}`);
    for (const [name, value] of Object.entries(args.headers ?? {})) {
      if (value !== undefined) headers.set(name, value);
    }
    let body: string | Uint8Array | undefined;
    if (args.body !== undefined && operation.body === "bytes") {
      // A file's bytes (a font): sent as they are, as the caller's Content-Type says.
      if (!headers.has("Content-Type")) headers.set("Content-Type", "application/octet-stream");
      body = args.body as Uint8Array;
    } else if (args.body !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(args.body);
    }
    const answer: string = operation.answer;
    if (!headers.has("Accept")) {
      headers.set("Accept", answer === "json" ? "application/json" : answer === "bytes" ? "image/png" : "*/*");
    }
    const response = await this.send(this.url(id, args), { method: operation.method, headers, body });
    return this.reply(response, answer);
  }

  private async reply(response: Response, kind: string): Promise<Reply<unknown>> {
    const type = response.headers.get("Content-Type") ?? "";
    if (!response.ok && response.status !== 304) {
      const text = await response.text();
      let answer: unknown = text;
      if (type.startsWith("application/json")) answer = JSON.parse(text);
      throw new ScrollStackError(response.status, answer);
    }
    let body: unknown = undefined;
    if (response.status !== 204 && response.status !== 304) {
      if (type.startsWith("application/json")) body = await response.json();
      else if (kind === "bytes" || type.startsWith("image/png")) body = new Uint8Array(await response.arrayBuffer());
      else body = await response.text();
    }
    return { status: response.status, etag: response.headers.get("ETag"), headers: response.headers, body };
  }

  /**
   * A stack's live events, message by message, from `after` on (or from now). Reads the
   * `text/event-stream` of `GET /v1/stacks/{stack}/events` with the token in a header (so no
   * ticket is needed outside a browser's EventSource) and, when the connection drops,
   * reconnects with `Last-Event-ID` set to the last revision seen, so no revision is missed or
   * repeated. Ends when `signal` aborts.
   */
  follow(stack: string, options: FollowOptions = {}): AsyncGenerator<StreamMessage> {
    return this.stream(this.url("eventHistory", { path: { stack } }), options);
  }

  /** A pile's live events, as `follow` reads a stack's. */
  followPile(pile: string, options: FollowOptions = {}): AsyncGenerator<StreamMessage> {
    return this.stream(this.url("pileEvents", { path: { pile } }), options);
  }

  private async *stream(url: string, options: FollowOptions): AsyncGenerator<StreamMessage> {
    let last = options.after;
    const reconnect = options.reconnect ?? true;
    for (;;) {
      const headers = new Headers({ Accept: "text/event-stream" });
      if (this.token) headers.set("Authorization", `Bearer ${this.token}`);
      if (last !== undefined) headers.set("Last-Event-ID", String(last));
      let response: Response;
      try {
        response = await this.send(url, { headers, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted || !reconnect) return;
        await pause(options.retryMilliseconds ?? 1000, options.signal);
        continue;
      }
      if (!response.ok) {
        const type = response.headers.get("Content-Type") ?? "";
        const text = await response.text();
        throw new ScrollStackError(response.status, type.startsWith("application/json") ? JSON.parse(text) : text);
      }
      try {
        for await (const message of messages(response)) {
          last = message.revision;
          yield message;
        }
      } catch (error) {
        if (options.signal?.aborted) return;
        if (!reconnect) throw error;
      }
      if (options.signal?.aborted || !reconnect) return;
      await pause(options.retryMilliseconds ?? 1000, options.signal);
    }
  }
}

/** Splits a `text/event-stream` body into its messages (`id:` and `data:` lines, blank-line ended). */
async function* messages(response: Response): AsyncGenerator<StreamMessage> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      const data = block.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n");
      if (data) yield JSON.parse(data) as StreamMessage;
    }
  }
}

function pause(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
