package emulator

// MaxBody is the largest request body, for the external tests.
const MaxBody = maxBody
