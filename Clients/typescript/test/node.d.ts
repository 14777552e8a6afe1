// The few Node built-ins the tests use (Debian ships TypeScript without @types/node).
declare module "node:test" {
  export function test(name: string, body: () => Promise<void> | void): void;
}
declare module "node:assert/strict" {
  const assert: {
    (value: unknown, message?: string): asserts value;
    equal(actual: unknown, expected: unknown, message?: string): void;
    deepEqual(actual: unknown, expected: unknown, message?: string): void;
    ok(value: unknown, message?: string): asserts value;
    match(value: string, pattern: RegExp, message?: string): void;
    rejects(block: Promise<unknown>, check?: (error: any) => boolean, message?: string): Promise<void>;
  };
  export default assert;
}
declare const process: { env: { [name: string]: string | undefined } };
declare module "node:child_process" {
  export interface ChildProcess {
    readonly stderr: { on(event: "data", listener: (chunk: unknown) => void): void };
    on(event: "error", listener: (error: Error) => void): void;
    on(event: "exit", listener: (code: number | null) => void): void;
    kill(signal?: string): boolean;
  }
  export function spawn(command: string, args: readonly string[], options: {
    env?: { [name: string]: string | undefined };
    stdio?: readonly ("ignore" | "pipe" | "inherit")[];
  }): ChildProcess;
}
declare module "node:fs" {
  export function readFileSync(path: string): Uint8Array;
}
