module github.com/strategobot/strategobot

go 1.26
