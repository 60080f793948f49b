package postgres_test

func crashChild(url string) {}
