// Optional fields set only when they have a value: with `exactOptionalPropertyTypes` an absent
// field and one set to `undefined` are different things, and every options object of the tool
// leaves a field out rather than set it to `undefined`.

/** `T` with every field that may be undefined made optional and never undefined. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

/** The fields of `fields` whose value is not undefined: `{ ...definedFields({ out: args.out }) }`. */
export function definedFields<T extends object>(fields: T): Defined<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Defined<T>;
}
