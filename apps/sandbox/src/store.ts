import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CapturedMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  from: string;
  subject: string | null;
  text: string;
  html: string | null;
  /** ISO 8601 */
  receivedAt: string;
}

export interface MessageFilter {
  to?: string;
  channel?: 'email' | 'sms';
  subjectIncludes?: string;
}

/** The inbox keeps only this many messages, in memory and on disk. */
export const MAX_MESSAGES = 500;
const INBOX_FILE = 'inbox.jsonl';

/** Phone numbers compare on digits and the leading +, so "+1 (415) 555-0100" finds "+14155550100". */
function normalizeAddress(value: string): string {
  const trimmed = value.trim().toLowerCase();
  if (/^[+\d\s().-]+$/.test(trimmed) && /\d/.test(trimmed)) {
    return trimmed.replace(/[^\d+]/g, '');
  }
  return trimmed;
}

export function matchesFilter(message: CapturedMessage, filter: MessageFilter): boolean {
  if (filter.channel && message.channel !== filter.channel) return false;
  if (filter.to && normalizeAddress(message.to) !== normalizeAddress(filter.to)) return false;
  if (filter.subjectIncludes) {
    const needle = filter.subjectIncludes.toLowerCase();
    const haystack = `${message.subject ?? ''}\n${message.channel === 'sms' ? message.text : ''}`;
    if (!haystack.toLowerCase().includes(needle)) return false;
  }
  return true;
}

interface Waiter {
  filter: MessageFilter;
  resolve: (message: CapturedMessage) => void;
}

function isCapturedMessage(value: unknown): value is CapturedMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    (v.channel === 'email' || v.channel === 'sms') &&
    typeof v.to === 'string' &&
    typeof v.from === 'string' &&
    typeof v.text === 'string' &&
    typeof v.receivedAt === 'string'
  );
}

/**
 * Captured mail and SMS, newest first, bounded to MAX_MESSAGES. With a data directory the inbox is
 * an append-only JSON-lines file (oldest line first) that is compacted whenever it doubles.
 */
export class MessageStore {
  private items: CapturedMessage[] = [];
  private waiters = new Set<Waiter>();
  private readonly file: string | undefined;
  private linesOnDisk = 0;

  constructor(dataDir?: string) {
    if (dataDir) {
      mkdirSync(dataDir, { recursive: true });
      this.file = join(dataDir, INBOX_FILE);
      this.load();
    }
  }

  private load(): void {
    if (!this.file) return;
    let raw: string;
    try {
      raw = readFileSync(this.file, 'utf8');
    } catch {
      return;
    }
    const loaded: CapturedMessage[] = [];
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isCapturedMessage(parsed)) loaded.push(parsed);
      } catch {
        // A line cut short by a crash is skipped rather than losing the whole inbox.
      }
    }
    this.items = loaded.reverse().slice(0, MAX_MESSAGES);
    this.linesOnDisk = loaded.length;
    if (this.linesOnDisk > MAX_MESSAGES) this.compact();
  }

  private compact(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    const lines = [...this.items].reverse().map((m) => `${JSON.stringify(m)}\n`);
    writeFileSync(tmp, lines.join(''), { mode: 0o600 });
    renameSync(tmp, this.file);
    this.linesOnDisk = lines.length;
  }

  add(input: Omit<CapturedMessage, 'id' | 'receivedAt'> & { id?: string }): CapturedMessage {
    const message: CapturedMessage = {
      id: input.id ?? randomUUID(),
      channel: input.channel,
      to: input.to,
      from: input.from,
      subject: input.subject,
      text: input.text,
      html: input.html,
      receivedAt: new Date().toISOString(),
    };
    this.items.unshift(message);
    if (this.items.length > MAX_MESSAGES) this.items.length = MAX_MESSAGES;
    if (this.file) {
      appendFileSync(this.file, `${JSON.stringify(message)}\n`, { mode: 0o600 });
      this.linesOnDisk += 1;
      if (this.linesOnDisk >= MAX_MESSAGES * 2) this.compact();
    }
    for (const waiter of this.waiters) {
      if (matchesFilter(message, waiter.filter)) waiter.resolve(message);
    }
    return message;
  }

  list(filter: MessageFilter = {}): CapturedMessage[] {
    return this.items.filter((m) => matchesFilter(m, filter));
  }

  clear(): void {
    this.items = [];
    if (this.file) {
      writeFileSync(this.file, '');
      this.linesOnDisk = 0;
    }
  }

  /**
   * Resolves with the newest message already captured that matches, or else with the next one to
   * arrive. Call clear() first when an older match must not count.
   */
  waitFor(filter: MessageFilter, timeoutMs = 5_000): Promise<CapturedMessage> {
    const existing = this.list(filter)[0];
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        filter,
        resolve: (message) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new Error(`No message matching ${JSON.stringify(filter)} arrived within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
