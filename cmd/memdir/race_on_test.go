//go:build race

package main

// raceEnabled says the test binary, and so every memdir process a script
// starts, was built with the race detector.
const raceEnabled = true
