// A profile (config file, flags) that cannot describe a target: one line and exit 2. Apart from profile.ts so
// that the CLI can recognise it without loading the profile's parser and schema.
export class ProfileError extends Error {}
