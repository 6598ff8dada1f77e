// Package refdoc writes the reference documents generated from the code (docs/reference/): a
// server's flags from the flag.FlagSet it really parses, and its metrics from the collectors it
// really registers, in Markdown; and compares a document on disk with what the code generates,
// for the tests that keep them in step.
//
// It only formats what it is given: it parses no command line, serves nothing, and writes a file
// only when a test asks it to (-update).
package refdoc
