// The `synonyms` package ships its thesaurus as plain CommonJS without types.
declare module 'synonyms/dictionary.js' {
  const dictionary: Record<string, Record<string, string[]>>;
  export default dictionary;
}
