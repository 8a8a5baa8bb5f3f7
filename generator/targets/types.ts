import type { TargetOptions } from '../config.js';
import type { ApiModel } from '../model/types.js';

/** A file a target wants on disk. Paths are relative to the project root. */
export interface OutputFile {
  path: string;
  contents: string;
  /**
   * `generated`: owned by the generator, rewritten when it differs.
   * `scaffold`: written only when missing; an existing file is handed back to
   * the target through `TargetContext.readExisting` and the target returns
   * the merged contents (e.g. ts-morph updates of generated signatures).
   */
  ownership: 'generated' | 'scaffold';
}

export interface TargetContext {
  model: ApiModel;
  /** Absolute project root. */
  root: string;
  /** Directory generated files go to, relative to root (default `generated`). */
  outDir: string;
  /** Absolute path of the templates folder: the built-in one, or it overlaid with the user's (`generator/templates.ts`). */
  templatesDir: string;
  /** Per-target options from the config and flags, defaults applied. */
  options: TargetOptions;
  /**
   * The files a target named in this target's `dependsOn` produces in this
   * run (run once, shared, written only when that target was selected too),
   * for targets that repackage others' output (`client-package`).
   */
  filesOf(target: string): Promise<OutputFile[]>;
  /** Whether this run produces the named target's files: chosen, or read by a chosen target (`dependsOn`). */
  produces(target: string): boolean;
  /** The one-line command that regenerates the output, for banners and messages. */
  command: string;
  /** Contents of an existing file (relative to root), or undefined. */
  readExisting(path: string): string | undefined;
  /** Non-fatal findings (e.g. a handler whose operation left the spec). */
  report(message: string): void;
  /** What this target's `warmUp` returned for this run, if it has one. */
  warm?: WarmUp;
}

/** Work a target started before the document was loaded; stopped when the run ends, whether or not the target ran. */
export interface WarmUp {
  /** The bundled document as loaded, before the model is built from it (and adds derived operationIds to it). */
  loaded?(document: Record<string, unknown>): void;
  stop(): void;
}

/** What a run knows of a target before importing it: all but its work (`lazyTarget` in the registry). */
export type TargetAbout = Omit<Target, 'generate' | 'warmUp'>;

export interface Target {
  /** Name used by `--only`. */
  name: string;
  description: string;
  /**
   * Optional peer packages the target loads (docs/decisions/0008-package-and-dependencies.md).
   * When nobody named the targets, a target whose peers are missing is skipped with a note.
   */
  peers?: readonly string[];
  /**
   * Targets whose in-memory output this one reads through `ctx.filesOf`. A
   * dependency that is off by default and not named gives no files.
   */
  dependsOn?: readonly string[];
  /**
   * False: the target runs only when named (`--only` or `targets` of the
   * config); a run whose targets nobody chose leaves it out, and a target
   * reading its files gets none (docs/decisions/0032-query-target.md).
   * Absent means true.
   */
  byDefault?: boolean;
  /**
   * Work that needs no document, started as soon as a run knows its targets
   * and before the spec is loaded (the `types` target starts its worker
   * thread here). `spec` is the absolute path of the spec's root file.
   * What it returns reaches `generate` as `ctx.warm`.
   */
  warmUp?(spec: string): WarmUp | undefined;
  /**
   * The target's files. Targets of a run are started one after another in
   * registry order without waiting for each other's promises, so a target
   * that waits for a thread lets the next ones run meanwhile.
   */
  generate(ctx: TargetContext): Promise<OutputFile[]> | OutputFile[];
}
