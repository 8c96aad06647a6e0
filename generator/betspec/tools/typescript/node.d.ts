// The little of Node that betspec's runner reads, declared here so that compiling it needs no
// @types/node (the engines themselves read nothing of Node: they run in any JavaScript engine).

declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf-8"): string;
}

declare module "node:readline" {
  interface Lines {
    on(event: "line", listener: (line: string) => void): void;
  }
  export function createInterface(options: { input: unknown; crlfDelay?: number }): Lines;
}

declare const process: {
  argv: string[];
  stdin: unknown;
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
  exit(code?: number): never;
};
