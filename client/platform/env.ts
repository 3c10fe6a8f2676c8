/** A process environment as a plain value: what the front end read, passed down (never process.env itself). */
export type Env = Readonly<Record<string, string | undefined>>;
