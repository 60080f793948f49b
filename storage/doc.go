// Package storage keeps matches, challenges, players and ratings in bbolt,
// one transaction per change. It is built in a later issue; this file keeps
// the package in the layout.
package storage
