package secrets

// Pieces shared by the assignment-shaped patterns.
const (
	// assignOp is the separator between a key and its value: =, :, := or
	// =>, with optional quotes or markdown bold around the key.
	assignOp = `["'*]{0,2}[ \t]*(?::=|=>|[:=])[ \t*]*`
	// assignValue captures a double-quoted, single-quoted or bare value.
	assignValue = `(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"'<>,;&` + "`" + `()\[\]{}]+))`
	// keyPrefix allows namespaced keys such as DB_PASSWORD or app.secret.
	keyPrefix = `(?:[a-z0-9]+[_.-])*`
	// wordStart keeps keys from starting inside a word (bypass=, mytoken=).
	wordStart = `(?:^|[^a-z0-9_])`
	// eol is a line break, real or escaped inside a JSON string.
	eol = `(?:\r?\n|(?:\\r)?\\n)`
	// valueEnd captures the first visible byte after a value on its line,
	// "" at the end of the line: a lone word there is a value, one
	// followed by more words is prose.
	valueEnd = `[ \t]*([^ \t\r\n]?)`
)

// buildTable lists every detector, most specific first: when spans overlap the
// earlier row wins, so a GitHub token inside token=... is reported as a
// GitHub token.
func buildTable() []pattern {
	return []pattern{
		{
			kind: "private key block",
			// The key material may follow on the next line, on the same
			// line (a key collapsed onto one line) or after the headers
			// of a legacy encrypted key, on their lines or on the same one.
			re: lazyRE(`(-----BEGIN (?:[A-Z0-9]+ ){0,2}PRIVATE KEY(?: BLOCK)?-----)[ \t]*(?:` + eol + `)?` +
				`(?:[A-Za-z-]+:[^\r\n\\]*` + eol + `)*` + eol + `?[ \t]*` +
				`(?:Proc-Type:[^\r\n\\]*?DEK-Info:[ \t]*[A-Z0-9-]+,[0-9A-Fa-f]+[ \t]+)?[A-Za-z0-9+/=]{16,}`),
			anchors: []string{"PRIVATE KEY"},
			gate:    pemHeader,
			// The whole match, so that the key's first line is not found
			// again as a key body without armour.
			extraLines: 4,
		},
		{
			kind:    "GCP service account key",
			re:      lazyRE(`"private_key_id"[ \t]*:[ \t]*"[0-9a-f]{40}"`),
			anchors: []string{"private_key_id"},
			gate:    assigned,
		},
		{
			kind:    "AWS access key ID",
			re:      lazyRE(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`),
			anchors: []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"},
			gate:    followedBy(16, upperSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "AWS secret access key",
			re:      lazyRE(`(?i)(` + keyPrefix + `(?:aws_?secret_?access_?key|aws_?secret_?key)` + assignOp + `["']?([a-z0-9/+]{40}))(?:[^a-z0-9/+=]|$)`),
			anchors: []string{"aws_secret", "awssecret"},
			gate:    assigned,
			fold:    true,
			atWord:  true,
			span:    1,
			valid:   func(g []string) bool { return random(g[2]) },
		},
		{
			kind:    "Google API key",
			re:      lazyRE(`\bAIza[0-9A-Za-z_\-]{35}`),
			anchors: []string{"AIza"},
			gate:    followedBy(35, tokenSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "GitHub token",
			re:      lazyRE(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`),
			anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			gate:    followedBy(22, tokenSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind: "GitLab token",
			re:   lazyRE(`\bgl(?:pat|dt|ptt|rt|cbt|imt|agent|oas|ft|soat|ffct)-[0-9A-Za-z_\-]{20,}`),
			anchors: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glimt-",
				"glagent-", "gloas-", "glft-", "glsoat-", "glffct-"},
			gate:  followedBy(20, tokenSet),
			valid: func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "Slack token",
			re:      lazyRE(`\bxox[abposre]-[0-9]{6,}-[0-9A-Za-z-]{8,}`),
			anchors: []string{"xox"},
			gate:    followedBy(10, tokenSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "Slack webhook URL",
			re:      lazyRE(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,}`),
			anchors: []string{"hooks.slack.com"},
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "Discord webhook URL",
			re:      lazyRE(`https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,68}`),
			anchors: []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"},
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "Anthropic API key",
			re:      lazyRE(`\bsk-ant-(?:[a-z]+[0-9]*-)?[A-Za-z0-9_\-]{32,}`),
			anchors: []string{"sk-ant-"},
			gate:    followedBy(32, tokenSet),
			valid:   func(g []string) bool { return mixed(g[0]) },
		},
		{
			kind:    "OpenAI API key",
			re:      lazyRE(`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}`),
			anchors: []string{"sk-"},
			gate:    followedBy(20, tokenSet),
			valid:   func(g []string) bool { return mixed(g[0]) },
		},
		{
			kind:    "Stripe key",
			re:      lazyRE(`\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}`),
			anchors: []string{"k_live_", "k_test_"},
			gate:    followedBy(16, alnumSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "npm token",
			re:      lazyRE(`\bnpm_[A-Za-z0-9]{36}\b`),
			anchors: []string{"npm_"},
			gate:    followedBy(36, alnumSet),
			valid:   func(g []string) bool { return random(g[0]) && hasDigit(g[0]) },
		},
		{
			kind:    "Twilio API key",
			re:      lazyRE(`\bSK[0-9a-fA-F]{32}\b`),
			anchors: []string{"SK"},
			gate:    followedBy(32, hexSet),
			valid:   func(g []string) bool { return random(g[0][2:]) && hasDigit(g[0][2:]) },
		},
		{
			kind: "Twilio auth token",
			re: lazyRE(`(?i)` + keyPrefix + `twilio[a-z0-9_.-]{0,20}(?:auth|token|secret)[a-z0-9_]*` +
				assignOp + `["']?([0-9a-f]{32})\b`),
			anchors: []string{"twilio"},
			gate:    assigned,
			fold:    true,
			atWord:  true,
			valid:   func(g []string) bool { return random(g[1]) && hasDigit(g[1]) },
		},
		{
			kind:    "SendGrid API key",
			re:      lazyRE(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`),
			anchors: []string{"SG."},
			gate:    followedBy(22, tokenSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind:    "Azure storage account key",
			re:      lazyRE(`(?i)\bAccountKey=([a-z0-9+/]{40,}={0,2})`),
			anchors: []string{"accountkey="},
			gate:    followedBy(40, b64Set),
			fold:    true,
			valid:   func(g []string) bool { return random(g[1]) },
		},
		{
			kind:    "Heroku API key",
			re:      lazyRE(`\bHRKU-[0-9A-Za-z_-]{20,}`),
			anchors: []string{"HRKU-"},
			gate:    followedBy(20, tokenSet),
			valid:   func(g []string) bool { return random(g[0]) },
		},
		{
			kind: "Heroku API key",
			re: lazyRE(`(?i)` + keyPrefix + `heroku[a-z0-9_.-]{0,20}(?:key|token|secret|password)` + assignOp +
				`["']?([0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})\b`),
			anchors: []string{"heroku"},
			gate:    assigned,
			fold:    true,
			atWord:  true,
			valid:   func(g []string) bool { return random(g[1]) },
		},
		{
			kind:    "JSON Web Token",
			re:      lazyRE(`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{8,}`),
			anchors: []string{"eyJ"},
			gate:    followedBy(10, tokenSet),
			valid:   jwt,
		},
		{
			kind: "URL with credentials",
			re: lazyRE(`(?i)\b([a-z][a-z0-9+.-]{1,15}://([^\s:/?#@"'<>\[\]` + "`" + `]*):` +
				`([^\s/?#@"'<>` + "`" + `]+)@)[a-z0-9\[]`),
			anchors: []string{"://"},
			gate:    userinfo,
			span:    1,
			valid:   urlCredentials,
		},
		{
			kind:    "basic auth header",
			re:      lazyRE(`(?i)\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([a-z0-9+/]{8,}={0,2})`),
			anchors: []string{"authorization"},
			gate:    assigned,
			fold:    true,
			valid:   basicAuth,
		},
		{
			kind:    "bearer token",
			re:      lazyRE(`(?i)\bBearer[ \t]+([a-z0-9\-._~+/]{20,}=*)`),
			anchors: []string{"bearer"},
			gate:    bearer,
			fold:    true,
			valid:   func(g []string) bool { return highEntropy(g[1]) },
		},
		{
			kind: "password assignment",
			// PGPASSWORD and MYSQLPASSWORD glue a prefix to the key; a bare
			// "pass" or "pwd" key needs one (db_pass, MYSQL_PWD), as "pass:"
			// alone is mostly prose ("tests pass: 12/14") and PWD a directory.
			re: lazyRE(`(?i)` + wordStart + `(` + keyPrefix + `(?:[a-z0-9]*passw(?:or)?d|passphrase|[a-z0-9]+[_.-](?:pass|pwd))` +
				assignOp + assignValue + `)` + valueEnd),
			anchors: []string{"passw", "passphrase", "_pass", ".pass", "-pass", "_pwd", ".pwd", "-pwd"},
			gate:    assigned,
			fold:    true,
			atWord:  true,
			span:    1,
			valid:   assignment(true),
		},
		{
			kind: "password in prose",
			re: lazyRE(`(?i)\b(?:password|passphrase|passcode)(?: for [^\s]{1,40})?[ \t]{1,4}(?:is|was)(?:[ \t]*:)?[ \t]+` +
				`("[^"\r\n]{6,}"|'[^'\r\n]{6,}'|` + "`[^`\r\n]{6,}`" + `|[^\s"'<>` + "`" + `]{6,})`),
			anchors: []string{"password", "passphrase", "passcode"},
			gate:    saidIs,
			fold:    true,
			span:    1,
			valid:   prosePassword,
		},
		{
			kind: "secret assignment",
			re: lazyRE(`(?i)` + wordStart + `(` + keyPrefix +
				`(?:secret|secret[_-]?key|api[_-]?key|apikey|access[_-]?key|private[_-]?key|token)` + assignOp + assignValue + `)`),
			anchors: []string{"secret", "token", "apikey", "api_key", "api-key",
				"access_key", "access-key", "accesskey", "private_key", "private-key", "privatekey"},
			gate:   assigned,
			fold:   true,
			atWord: true,
			span:   1,
			valid:  assignment(false),
		},
	}
}
