package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTableColumns: the cells of a markdown table's column whose header
// names a secret are cut out when they hold one; other columns, other
// headers, and cells that hold no secret are left alone.
func TestTableColumns(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(1597, 2584))}
	p1, p2, k := g.pw(14), g.pw(12), g.str(shAlnum, 32)
	checkCaught(t, "| service | user | password |\n|---------|------|----------|\n| grafana | admin | "+p1+" |\n| minio | root | "+p2+" |", p1, p2)
	checkCaught(t, "Staging creds:\n\nHost | API Key | Notes\n:--- | :---: | ---\napi.acme.io | `"+k+"` | rotated in May\n", k)
	checkCaught(t, "| Env | DB Password |\r\n| --- | --- |\r\n| prod | **"+p1+"** |\r\n", p1)
	for _, in := range []string{
		"| Option | Password | Description |\n|---|---|---|\n| --db | required | the database's |\n| --cache | optional | none |",
		"| Setting | Password |\n|---|---|\n| MYSQL | `$MYSQL_PASSWORD` |\n| Redis | ******** |\n| Mongo | see the vault |",
		"| Name | Secret |\n|---|---|\n| db | db-credentials |\n| api | DB_PASSWORD |",
		"| Password policy | Value |\n|---|---|\n| min length | 12chars |",
		"| host | port |\n|---|---|\n| db01 | 5432x1 |",
		"| user | token count |\n|---|---|\n| bob | 1234abc |",
		"a -- b | c\n| password |\n",
		"| password |\n|---|\n\nafter the table: x1y2z3w4",
	} {
		checkQuiet(t, in, strings.Contains(strings.ToLower(in), "password"))
	}
}
