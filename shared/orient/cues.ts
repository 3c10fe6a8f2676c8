import { ORIENTATION_LIMITS } from "./types.js";

/** What plain prose says, by the cues of its sentences. */
export interface ProseCues {
  /** The first sentence that says what is being done ("I'm migrating...", "The goal is..."). */
  objective?: string;
  /** A report's first sentence, with no cue of its own, when what follows says where things stand. */
  subject?: string;
  /** Sentences that say where things stand: what works, what fails, what is done. */
  state: string[];
  /** Sentences that say what comes next. */
  next: string[];
}

// Each sentence is read once, in this order: a sentence that opens with "next" is a next step
// whatever else it says; the first one that says what is being done is the objective; then
// state, then a later intention ("I'll", "still need to").
const NEXT_OPENING = /^(?:next\b|then\b|after that\b|afterwards\b|tomorrow\b|to ?do\b|still to do\b|left to do\b|remaining\b|what'?s left\b|what remains\b|follow[- ]up\b|the next step\b|next up\b)/;
const DOING =
  /\b(?:(?:i'?m|i am|we'?re|we are|i'?ve been|we'?ve been|i was|we were)\s+(?:now\s+|still\s+|currently\s+)?(?!going\b)[a-z]+ing\b|working on|trying to|attempting to|in the middle of|set out to|asked (?:me |us )?to|the (?:goal|aim|task|plan|job|idea|objective|point|ask) (?:here )?(?:is|was)|my task|our task)/;
// An instruction as the opening sentence is the task itself ("Fix the flaky retry test.").
const TASK_VERB =
  /^(?:please\s+)?(?:add|build|clean|convert|debug|fix|finish|implement|improve|investigate|make|migrate|move|port|reduce|refactor|remove|rename|replace|rewrite|ship|speed up|support|update|upgrade|wire|write)\b/;
const STATE =
  /\b(?:fail(?:s|ed|ing|ure|ures)?|broken|breaks|errors?|crash(?:es|ed|ing)?|red|green|pass(?:es|ed|ing)?|works|worked|blocked|stuck|hangs?|hung|flaky|flakes|times? out|timed out|timeouts?|done|finished|complete(?:d)?|merged|pushed|committed|landed|shipped|deployed|released|half|partly|partially|currently|right now|so far|at the moment|ready|in progress|regress\w*|compiles|builds|reproduc\w*|fixed|resolved|moved|added|implemented|removed|renamed|refactored|migrated|wired)\b/;
const INTENT = /\b(?:i'?ll|we'?ll|i will|we will|still need(?:s)? to|need(?:s)? to|plan(?:ning)? to|going to|have yet to|has yet to|to be done|next step)\b/;
// Sentences, whole: "the endpoint works; the button is hidden" is one account of the state.
const SENTENCE_BREAK = /(?<=[.!?])\s+/;
/**
 * Prose is read this far. What it yields is bounded anyway (ORIENTATION_LIMITS), and a handoff
 * says what it is about near its start: a 1 MiB paste of prose costs no more than its head.
 */
export const PROSE_READ_CHARS = 64 * 1024;

/**
 * Objective, state and next steps read from prose by the cues of its sentences, for a body with
 * no section to say them. Only what the prose says is taken, sentence by sentence; a sentence
 * with no cue is left alone, except a first sentence that names the subject of a report that
 * goes on to say where things stand.
 *
 * @example
 * ```ts
 * readProseCues(["I'm migrating the billing jobs to the queue. The reminder job fails with a timeout. Next I'll raise the lock TTL."])
 * // { objective: "I'm migrating the billing jobs to the queue.", state: ["The reminder job fails with a timeout."], next: ["Next I'll raise the lock TTL."] }
 * ```
 */
export function readProseCues(paragraphs: string[]): ProseCues {
  const cues: ProseCues = { state: [], next: [] };
  let uncued: string | undefined;
  let first = true;
  let budget = PROSE_READ_CHARS;
  for (const whole of paragraphs) {
    if (budget <= 0) break;
    const paragraph = whole.length > budget ? whole.slice(0, budget) : whole;
    budget -= paragraph.length;
    for (const sentence of paragraph.split(SENTENCE_BREAK)) {
      const text = sentence.trim();
      if (text === "") continue;
      const lower = text.toLowerCase().replace(/[‘’]/g, "'");
      if (NEXT_OPENING.test(lower)) push(cues.next, text);
      else if (cues.objective === undefined && (DOING.test(lower) || (first && TASK_VERB.test(lower)))) cues.objective = text;
      else if (STATE.test(lower)) push(cues.state, text);
      else if (INTENT.test(lower)) push(cues.next, text);
      else if (cues.state.length === 0 && cues.next.length === 0) uncued ??= text;
      first = false;
    }
  }
  // "The billing jobs move to the queue. The reminder job fails." A report that says where
  // things stand names its subject first, before any state, without a cue of its own.
  if (cues.objective === undefined && uncued !== undefined && cues.state.length > 0) cues.subject = uncued;
  return cues;
}

function push(list: string[], text: string): void {
  if (list.length < ORIENTATION_LIMITS.items) list.push(text);
}
