// Package e2e tests privamp's planning page (web/static, compiled by
// web/build) end to end in a real headless Chromium: it builds the page and
// the command line, serves the page from 127.0.0.1, drives Debian's chromium
// through chromium-driver with a small WebDriver client of its own, and
// asserts that every number the page shows is the number the command line
// prints for the same question, to the printed digits. Screenshots of each
// state go to web/e2e/artefacts (not in git). The test is skipped under
// -short, and with a message naming what to install where no browser is
// found.
package e2e
