// Types for tenants.js (plain JS so the benchmarks run on Node 20 without a build step).
export interface Team {
  name: string;
  token: string;
}

export interface StoredState {
  object_keys: number;
  body: boolean;
  marker: boolean;
  team_entry: boolean;
}

export interface RetentionRun {
  published: number;
  teams: number;
  expired: number;
  live: number;
  liveTeam: number;
  lostAlarms: number;
  sweep: { due: number; reclaimed: number; orphans: number; ids: string[] };
  expectedSweep: string[];
  leftovers: Array<{ id: string } & StoredState>;
  missing: Array<{ id: string } & StoredState>;
  census: { bodies: number; markers: number; team_entries: number };
  publishPerSecond: number;
}

export interface TenancyComparison {
  publish: { oneTeam: number; manyTeams: number; ratio: number };
  read: { oneTeam: number; manyTeams: number; ratio: number };
  rounds: number;
  perRound: number;
  concurrency: number;
}

export const CLOCK_JUMP_MS: number;
export const READ_TOKEN_HEADERS: Record<string, string>;
export function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]>;
export function throughput(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<number>;
export function createTeams(url: string, adminToken: string, count: number): Promise<Team[]>;
export function simulateRetention(options: { url: string; teams: Team[]; handoffs: number; concurrency: number }): Promise<RetentionRun>;
export function compareTenancy(options: { url: string; teams: Team[]; perRound: number; rounds: number; concurrency: number }): Promise<TenancyComparison>;
