/** Whether a client-supplied id can name a row: ids are positive 32-bit integers, and larger ones would fail in SQL. */
export const isDbId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
