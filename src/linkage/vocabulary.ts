import { nameKey, type PreparedName, prepareName, similarityReadings } from './name-kit.js';

/** Strings to small integer ids, so records carry numbers and compare by `===`. */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  constructor(values: readonly string[] = []) {
    for (const value of values) this.intern(value);
  }

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  get(value: string): number | undefined {
    return this.ids.get(value);
  }

  get size(): number {
    return this.values.length;
  }
}

/** A vocabulary's names as plain strings, for another thread: forms in id order and each form's key. */
export interface NameList {
  forms: readonly string[];
  keys: readonly string[];
}

/**
 * Name parts in their matching form, each with the id of its cross-script key. Shared by every name field, so the
 * same name as a first name and as a father's name has one id (and one key).
 */
export class NameVocabulary {
  private readonly forms = new Interner();
  private readonly keyNames = new Interner();
  private keyIds = new Int32Array(1024);
  private latinFlags = new Uint8Array(1024);
  private preparedForms: (PreparedName | undefined)[] = [];
  private habitForms: (PreparedName[] | undefined)[] = [];

  /**
   * Rebuilds a vocabulary from its forms and their keys (in a worker, from a snapshot). The keys come along so
   * that no name is prepared again only to learn its key: a name is prepared when it is first compared.
   */
  static from(names: NameList): NameVocabulary {
    const vocabulary = new NameVocabulary();
    for (let id = 0; id < names.forms.length; id++)
      vocabulary.intern(names.forms[id] as string, names.keys[id]);
    return vocabulary;
  }

  /** Every form with its key, in id order (what a snapshot carries). */
  list(): NameList {
    return {
      forms: this.forms.values,
      keys: Array.from({ length: this.size }, (_, id) => this.keyText(this.keyOf(id))),
    };
  }

  /** The id of a form, added if new; `key`, when given, is its key as another vocabulary computed it. */
  intern(form: string, key?: string): number {
    const before = this.forms.size;
    const id = this.forms.intern(form);
    if (id === before) {
      if (id >= this.keyIds.length) {
        const grown = new Int32Array(this.keyIds.length * 2);
        grown.set(this.keyIds);
        this.keyIds = grown;
        const flags = new Uint8Array(this.keyIds.length);
        flags.set(this.latinFlags);
        this.latinFlags = flags;
      }
      this.keyIds[id] = this.keyNames.intern(key ?? nameKey(form));
      this.latinFlags[id] = /[a-z]/.test(form) ? 1 : 0;
    }
    return id;
  }

  get size(): number {
    return this.forms.size;
  }

  get keyCount(): number {
    return this.keyNames.size;
  }

  form(id: number): string {
    return this.forms.values[id] as string;
  }

  /** The key id of a name id. */
  keyOf(id: number): number {
    return this.keyIds[id] as number;
  }

  /** 1 when the name is written in Latin script, 0 for Arabic. */
  latin(id: number): number {
    return this.latinFlags[id] as number;
  }

  keyText(keyId: number): string {
    return this.keyNames.values[keyId] as string;
  }

  /** The id of a key some name of the vocabulary has; undefined when none has it. */
  keyIdOf(key: string): number | undefined {
    return this.keyNames.get(key);
  }

  /** The name read as other habits of lists write it (similarityReadings), prepared; often none. */
  habitPrepared(id: number): readonly PreparedName[] {
    let p = this.habitForms[id];
    if (p === undefined) {
      p = similarityReadings(this.form(id)).map(prepareName);
      this.habitForms[id] = p;
    }
    return p;
  }

  prepared(id: number): PreparedName {
    let p = this.preparedForms[id];
    if (p === undefined) {
      p = prepareName(this.form(id));
      this.preparedForms[id] = p;
    }
    return p;
  }
}
