// Package render draws pictures of game views: player and public boards,
// set-up previews, the final reveal and replays. It only ever receives views.
// It is built in a later issue; this file keeps the package in the layout.
package render
