import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';

/** Argo CD stops a jq patch after this long (util/argo/normalizers DefaultJQExecutionTimeout). */
export const JQ_TIMEOUT_MS = 1000;
/** The heap a jq worker may use; jq-wasm's own memory is bounded by its build (it aborts when that runs out). */
export const JQ_HEAP_MB = 256;
/** Loading the jq engine in a fresh worker. */
const START_TIMEOUT_MS = 30_000;

// Runs in the worker: loads jq-wasm, answers one request at a time on `port`, and raises the shared flag
// after each answer so that the caller, blocked in Atomics.wait, can read it synchronously.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
// What the engine prints (\`Aborted()\` when it runs out of memory) is not the command's output: the error says it.
// Silenced here rather than piped away: a piped stream of the worker would keep the process alive after its run.
console.error = console.warn = console.log = () => {};
process.stderr.write = process.stdout.write = () => true;
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const done = (message) => { port.postMessage(message); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
require(workerData.jqPath).loadJq().then((jq) => {
  parentPort.on('message', ({ value, program }) => {
    try {
      done({ outputs: jq.json(value, program) });
    } catch (e) {
      done({ error: String((e && e.message) || e), exitCode: e && e.exitCode });
    }
  });
  done({ ready: true });
}, (e) => done({ error: String((e && e.message) || e) }));
`;

/** Why a jq run gave no answer: the time or memory bound, stated for a human. */
export class JqBoundError extends Error {
  public readonly exitCode?: number;
  public readonly bounded: boolean;
  constructor(message: string, bounded: boolean, exitCode?: number) {
    super(message);
    this.name = 'JqBoundError';
    this.bounded = bounded;
    this.exitCode = exitCode;
  }
}

/**
 * jq-wasm in a worker thread, called synchronously with a time limit per run (Argo CD's 1 s) and a heap
 * limit: an expression that never ends (`def f: f; f`, `until(false; .)`) or eats memory costs at most the
 * limit, after which the worker is discarded and the next run starts a fresh one. An expression that hit a
 * bound once is not run again by this runner: it fails at once the same way.
 */
export class BoundedJq {
  private worker?: Worker;
  private port?: MessagePort;
  private flag?: Int32Array;
  private readonly failed = new Map<string, JqBoundError>();

  constructor(private readonly timeoutMs: number = JQ_TIMEOUT_MS, private readonly heapMb: number = JQ_HEAP_MB) {}

  /** The first output of `del(expression)` on `value` (value itself when there is none); throws as `run` does. */
  public del<T>(value: T, expression: string): T {
    const outputs = this.run(value, `del(${expression})`, expression);
    return (outputs.length > 0 ? outputs[0] : value) as T;
  }

  /** The outputs of `program` on `value`; throws a JqBoundError when a bound is hit, the jq error otherwise. */
  public run(value: unknown, program: string, expression: string = program): unknown[] {
    const known = this.failed.get(program);
    if (known) {
      throw known;
    }
    const reply = this.request({ value, program }, this.timeoutMs);
    if (reply === undefined) {
      this.stop();
      const error = new JqBoundError(`jqPathExpression ${JSON.stringify(expression)} did not finish within ${this.timeoutMs / 1000} s `
        + '(Argo CD stops a jq patch after 1 s and leaves the resource unnormalized); simplify it or remove it', true);
      this.failed.set(program, error);
      throw error;
    }
    if (reply.error !== undefined) {
      if (/^Aborted\(|out of memory|memory access out of bounds|Maximum call stack/i.test(reply.error)) {
        this.stop();
        // jq-wasm's own words for it (`Aborted(). Build with -sASSERTIONS...`) tell a user nothing more.
        const reason = /^Aborted\(/.test(reply.error) ? '' : ` (${reply.error.split('\n')[0]})`;
        const error = new JqBoundError(`jqPathExpression ${JSON.stringify(expression)} ran out of memory in jq${reason}; `
          + 'it recurses or builds without end: simplify it or remove it', true);
        this.failed.set(program, error);
        throw error;
      }
      throw new JqBoundError(reply.error, false, reply.exitCode);
    }
    return reply.outputs ?? [];
  }

  /** Ends the worker; the next run starts another. */
  public stop(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
    this.flag = undefined;
  }

  private start(): void {
    const { port1, port2 } = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    this.flag = new Int32Array(shared);
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { flag: shared, port: port2, jqPath: require.resolve('jq-wasm') },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    this.worker.unref();
    this.worker.on('error', () => { /* reported to the waiting run as no answer */ });
    const ready = this.wait(START_TIMEOUT_MS);
    if (ready?.ready !== true) {
      this.stop();
      throw new JqBoundError(`the jq engine did not start${ready?.error ? `: ${ready.error}` : ` within ${START_TIMEOUT_MS / 1000} s`}`, true);
    }
  }

  private request(message: { value: unknown; program: string }, timeoutMs: number): Reply | undefined {
    if (!this.worker) {
      this.start();
    }
    Atomics.store(this.flag!, 0, 0);
    this.worker!.postMessage(message);
    return this.wait(timeoutMs);
  }

  private wait(timeoutMs: number): Reply | undefined {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const received = receiveMessageOnPort(this.port!);
      if (received) {
        Atomics.store(this.flag!, 0, 0);
        return received.message as Reply;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        return undefined;
      }
      Atomics.wait(this.flag!, 0, 0, left);
    }
  }
}

interface Reply {
  readonly ready?: boolean;
  readonly outputs?: unknown[];
  readonly error?: string;
  readonly exitCode?: number;
}
