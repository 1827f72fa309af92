import { AuditFile, FileProblem, UnreadFile } from './types';
import { LocatedManifest, SourceLocation } from '../core/manifest';
import { decodeUtf8 } from '../core/manifest-values';
import { parseManifests } from '../core/parse-manifests';

/** The objects a file holds, and how many of its documents were not Kubernetes objects. */
export interface FileObjects {
  readonly objects: readonly LocatedManifest[];
  readonly skipped: number;
}

const NONE: FileObjects = { objects: [], skipped: 0 };

/** The bytes of a file, or undefined with a problem saying why it could not be read. */
export function readContent(file: AuditFile, problems: FileProblem[]): Uint8Array | undefined {
  try {
    return file.content;
  } catch (e) {
    problems.push({ file: file.path, message: e instanceof UnreadFile ? e.message : `cannot be read: ${String((e as Error).message).split('\n')[0]}` });
    return undefined;
  }
}

/** The Kubernetes objects of a file's bytes, or nothing with a problem saying why they could not be read. */
export function objectsOf(file: string, content: Uint8Array, budget: number, problems: FileProblem[]): FileObjects {
  let parsed: ReturnType<typeof parseManifests>;
  try {
    parsed = parseManifests(file, content);
  } catch (e) {
    problems.push({ file, message: unexpected(e, 'reading it') });
    return NONE;
  }
  if (parsed.problem) {
    problems.push({ file, message: parsed.problem });
    return NONE;
  }
  if (parsed.objects.length > budget) {
    problems.push({
      file,
      message: `holds ${parsed.objects.length} Kubernetes objects, over the audit's budget of ${budget} a file; skipped: split it into smaller files, or raise the budget (--max-objects-per-file)`,
    });
    return NONE;
  }
  return parsed;
}

/** The Kubernetes objects of one file, or nothing with a problem saying why it could not be read. */
export function readObjects(file: AuditFile, budget: number, problems: FileProblem[]): FileObjects {
  const content = readContent(file, problems);
  return content === undefined ? NONE : objectsOf(file.path, content, budget, problems);
}

/** A file's text, or undefined when there is no such file or it cannot be read as UTF-8. */
export function textOf(file: AuditFile | undefined): string | undefined {
  try {
    return file === undefined ? undefined : decodeUtf8(file.content);
  } catch {
    return undefined;
  }
}

/** What a defect the input provoked is reported as, on the file that provoked it. */
export function unexpected(e: unknown, doing: string): string {
  const message = String((e as Error)?.message ?? e).split('\n')[0];
  if ((e as Error)?.name === 'RangeError' && /call stack/i.test(message)) {
    return `could not be audited: ${doing} exhausted the stack (${message}); the file is too large or too deeply nested, split it into smaller files`;
  }
  return `could not be audited: ${doing} failed (${message}); this is a defect of safe-argocd, please report it with the file`;
}

/**
 * A file read whose parsing waits for the unit that deploys it: none of its objects can be one the audit groups by
 * (see {@link mayWait}), so its objects are made when its unit's rules run and are gone when they are done, instead of
 * being kept, and copied by every collection of the young generation, from the first file read to the last rule.
 */
export interface WaitingFile {
  /** Where the file is, as an object's location names it: its folder pairs it with Applications. */
  readonly location: SourceLocation;
  /** Its place among the files read: a folder's files are paired in the order they were walked. */
  readonly order: number;
  /** The bytes, until it is parsed. */
  content?: Uint8Array;
  /** How many units still deploy it; its objects are kept until the last of them is audited. */
  uses: number;
  /** Its objects, while a unit still needs them. */
  objects?: readonly LocatedManifest[];
  /** Whether it was parsed: its objects counted and its problems reported. */
  parsed: boolean;
}

/** An entry of what a unit deploys: an object, or a file whose objects are made when the unit is audited. */
export type UnitEntry = LocatedManifest | WaitingFile;

export function isWaiting(entry: object): entry is WaitingFile {
  return (entry as WaitingFile).uses !== undefined;
}

/**
 * Words one of which a file's text holds when an object in it may be one the audit reads before it pairs files with
 * Applications: an Application, ApplicationSet or AppProject, a repository or cluster Secret, the ConfigMap of the
 * ApplicationSet controller's settings. A backslash may escape a letter of any of them. A file with none of them holds
 * only objects that a unit deploys.
 */
const GROUPED_WORDS: readonly Buffer[] = ['Application', 'AppProject', 'Secret', 'argocd-cmd-params-cm', '\\'].map((w) => Buffer.from(w));

/** Whether a file's parsing may wait for the unit that deploys it (see {@link WaitingFile}). */
export function mayWait(content: Uint8Array): boolean {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  // The words as bytes, made once: a word given as a string is encoded again at every search.
  return !GROUPED_WORDS.some((word) => bytes.includes(word));
}

/**
 * The files whose parsing waits, in the order they were read: places them among the objects read at once, and makes
 * their objects, counting them and reporting their problems as the first reading would have.
 */
export class WaitingFiles {
  /** Objects and skipped documents of the files parsed so far. */
  public manifests = 0;
  public skipped = 0;

  /**
   * @param files the waiting files, in the order they were read
   * @param orderOf the place among the files read of the file an object was read from
   */
  constructor(
    private readonly files: readonly WaitingFile[],
    private readonly orderOf: (file: string) => number,
    private readonly budget: number,
    private readonly problems: FileProblem[],
  ) {}

  /** `objects`, which come in the order their files were read, with the waiting files among them where they were read. */
  public inWalkOrder(objects: readonly LocatedManifest[]): readonly UnitEntry[] {
    if (this.files.length === 0) {
      return objects;
    }
    const merged: UnitEntry[] = [];
    let next = 0;
    let lastFile: string | undefined;
    let lastOrder = -1;
    for (const o of objects) {
      if (o.location.file !== lastFile) {
        lastFile = o.location.file;
        lastOrder = this.orderOf(lastFile);
      }
      while (next < this.files.length && this.files[next].order < lastOrder) {
        merged.push(this.files[next++]);
      }
      merged.push(o);
    }
    while (next < this.files.length) {
      merged.push(this.files[next++]);
    }
    return merged;
  }

  /** The objects of `file` for one unit that deploys it: parsed the first time, forgotten after the last. */
  public objectsFor(file: WaitingFile): readonly LocatedManifest[] {
    const objects = this.parse(file);
    file.uses--;
    if (file.uses <= 0) {
      file.objects = undefined;
    }
    return objects;
  }

  /** Parses the files no unit deployed (a rendering stands for them), so that they are counted and their problems reported. */
  public settle(): void {
    for (const file of this.files) {
      if (!file.parsed) {
        this.parse(file);
        file.objects = undefined;
      }
    }
  }

  private parse(file: WaitingFile): readonly LocatedManifest[] {
    if (file.parsed) {
      return file.objects ?? [];
    }
    const read = objectsOf(file.location.file, file.content!, this.budget, this.problems);
    file.parsed = true;
    file.content = undefined;
    file.objects = read.objects;
    this.manifests += read.objects.length;
    this.skipped += read.skipped;
    return read.objects;
  }
}
