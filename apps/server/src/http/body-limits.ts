/**
 * How large a request body the server reads before it answers 413 `payload_too_large`. Every
 * route takes a small body: a form, a command, a user's settings (a few KB at most). Only the
 * routes that take a field's geometry — a program's sectors, a machine's area map, both often
 * imported from a GIS file with many corners — raise their limit with `bodyLimit:
 * GEOMETRY_BODY_LIMIT`. A body is refused from its Content-Length or once it grows past the
 * limit, before it is parsed.
 */
export const BODY_LIMIT = 64 * 1024;

/**
 * A program or an area map of the corner budget (MAX_CORNERS_PER_MESSAGE, 10,000 corners: about
 * 400 KB at full precision) with room for names and properties: parsing a body costs time on the
 * event loop before anything else can refuse it, so no more is read than the budget can need.
 */
export const GEOMETRY_BODY_LIMIT = 1024 * 1024;
