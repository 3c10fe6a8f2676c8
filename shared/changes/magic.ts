/**
 * The first bytes of every changes bundle ("HCHG"), apart from the format module so that a reader
 * that only needs to recognise a bundle (the store's listing) loads no schema library.
 */
export const CHANGES_MAGIC = new Uint8Array([0x48, 0x43, 0x48, 0x47]);
