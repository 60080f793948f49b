package main

import (
	"os"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// botEnv is the environment of a built bot run against the stand-in srv:
// this process's, with srv's token and address, no configuration file, and
// more (such as the database) after them, winning over them.
func botEnv(srv *discordtest.Server, more ...string) []string {
	env := append(os.Environ(),
		"DISCORD_TOKEN="+srv.Token(),
		"STRATEGOBOT_API_BASE_URL="+srv.APIBase(),
		"STRATEGOBOT_CONFIG=",
	)
	return append(env, more...)
}
