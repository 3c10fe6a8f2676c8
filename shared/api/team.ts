/**
 * The team inbox on the wire, without zod (the CLI's start-up path and the worker both read it):
 * the headers a team publish sends its sealed card and its proposed id in. Formats: docs/api.md
 * ("Team entries") and docs/storage.md ("The team card").
 */

/** Request header of a team-scope publish: the sealed card (`htc1.<key id>.<base64url>`). */
export const TEAM_CARD_HEADER = "Handoff-Team-Card";

/**
 * Request header of a publish: the id the client chose (22 base64url characters, 128 random
 * bits). A sealed card names its handoff's id, so the client must know the id before it seals;
 * a taken id is refused (400 invalid_option) and the client draws another.
 */
export const PROPOSED_ID_HEADER = "Handoff-Id";
