package secrets

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kindCase is a text holding exactly one credential of a kind.
type kindCase struct {
	name, text, kind string
}

// kindCases returns at least one credential of every kind Scan reports.
func kindCases() []kindCase {
	return []kindCase{
		{"pem rsa", "key:\n" + pemBlock("RSA ", "\n"), "private key block"},
		{"pem pkcs8", pemBlock("", "\n"), "private key block"},
		{"pem openssh crlf", pemBlock("OPENSSH ", "\r\n"), "private key block"},
		{"pem ec", pemBlock("EC ", "\n"), "private key block"},
		{"pem dsa", pemBlock("DSA ", "\n"), "private key block"},
		{"pem encrypted", pemBlock("ENCRYPTED ", "\n"), "private key block"},
		{"pem legacy encrypted headers", pemBlock("RSA ", "\n", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,"+hexs(32, 3), ""), "private key block"},
		{"pem pgp", strings.Replace(pemBlock("PGP ", "\n", "Version: GnuPG v2", ""), "KEY-----", "KEY BLOCK-----", 1), "private key block"},
		{"pem inside json", `{"private_key": "` + pemBlock("", `\n`) + `"}`, "private key block"},
		{"gcp service account", `{"type": "service_account", "private_key_id": "` + hexs(40, 1) + `"}`, "GCP service account key"},
		{"aws akia", "id AKIA" + strings.ToUpper(hexs(16, 2)) + " here", "AWS access key ID"},
		{"aws asia", "ASIA" + strings.ToUpper(rnd(16, 3)), "AWS access key ID"},
		{"aws secret", "aws_secret_access_key = " + gen(b64, 40, 4), "AWS secret access key"},
		{"aws secret env", `AWS_SECRET_ACCESS_KEY="` + gen(b64, 40, 5) + `"`, "AWS secret access key"},
		{"google api key", "key=AIza" + rnd(35, 6), "Google API key"},
		{"github ghp", "token: ghp_" + rnd(36, 7), "GitHub token"},
		{"github gho", "gho_" + rnd(36, 8), "GitHub token"},
		{"github ghs", "ghs_" + rnd(36, 9), "GitHub token"},
		{"github fine-grained", "github_pat_" + rnd(22, 10) + "_" + rnd(59, 11), "GitHub token"},
		{"gitlab pat", "glpat-" + rnd(20, 12), "GitLab token"},
		{"gitlab deploy", "gldt-" + rnd(24, 13), "GitLab token"},
		{"slack bot", "xoxb-123456789012-1234567890123-" + rnd(24, 14), "Slack token"},
		{"slack user", "xoxp-123456789012-123456789012-123456789012-" + hexs(32, 15), "Slack token"},
		{"slack webhook", "https://hooks.slack.com/services/T" + rnd(8, 16) + "/B" + rnd(8, 17) + "/" + rnd(24, 18), "Slack webhook URL"},
		{"anthropic", "ANTHROPIC_API_KEY=sk-ant-api03-" + rnd(93, 19) + "AA", "Anthropic API key"},
		{"openai project", "sk-proj-" + rnd(48, 20) + "_" + rnd(20, 21), "OpenAI API key"},
		{"openai legacy", "use sk-" + rnd(48, 22), "OpenAI API key"},
		{"stripe secret", "sk_live_" + rnd(24, 23), "Stripe key"},
		{"stripe restricted", "rk_live_" + rnd(24, 24), "Stripe key"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_" + rnd(36, 25), "npm token"},
		{"twilio api key", "SK" + hexs(32, 26), "Twilio API key"},
		{"twilio auth token", "TWILIO_AUTH_TOKEN=" + hexs(32, 27), "Twilio auth token"},
		{"sendgrid", "SG." + rnd(22, 28) + "." + rnd(43, 29), "SendGrid API key"},
		{"azure storage", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + gen(b64, 86, 30) + "==;EndpointSuffix=core.windows.net", "Azure storage account key"},
		{"heroku new", "HRKU-" + rnd(60, 31), "Heroku API key"},
		{"heroku uuid", "HEROKU_API_KEY=" + hexs(8, 32) + "-" + hexs(4, 33) + "-" + hexs(4, 34) + "-" + hexs(4, 35) + "-" + hexs(12, 36), "Heroku API key"},
		{"jwt", "cookie " + jwtToken(), "JSON Web Token"},
		{"url credentials", "postgres://app:s3cr3tPw@db.internal:5432/app", "URL with credentials"},
		{"url credentials https", "clone https://bob:" + rnd(16, 37) + "@git.example.org/repo.git", "URL with credentials"},
		{"basic auth", "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("alice:Tr0ub4dor&3")), "basic auth header"},
		{"bearer", "Authorization: Bearer " + rnd(40, 38), "bearer token"},
		{"password env", "DB_PASSWORD=hunter22", "password assignment"},
		{"password yaml quoted", `password: "correct horse"`, "password assignment"},
		{"password json", `{"password": "Tr0ub4dor&3"}`, "password assignment"},
		{"password markdown bold", "- **Password:** s3cr3t!x", "password assignment"},
		{"passwd colon", "passwd: pa$$w0rd", "password assignment"},
		{"password go", `pw := "x"; password := "Summer2024!"`, "password assignment"},
		{"secret", "client_secret = '" + rnd(24, 39) + "'", "secret assignment"},
		{"api key", "api_key: " + hexs(32, 40), "secret assignment"},
		{"token query", "https://api.internal/v1?token=abc123def456&x=1", "secret assignment"},
		{"secret key", "SECRET_KEY=django-insecure-" + rnd(40, 41), "secret assignment"},
		{"password upper case", "export PASSWORD=hunter22", "password assignment"},
		{"password lone word", "db password: correcthorse", "password assignment"},
		{"password glued prefix", "PGPASSWORD=hunter22", "password assignment"},
		{"pass with prefix", "smtp.pass = hunter22", "password assignment"},
		{"password in prose", "The password for staging is hunter22.", "password in prose"},
		{"password in prose quoted", "the passphrase was `open sesame`", "password in prose"},
		{"discord webhook", "https://discord.com/api/webhooks/123456789012345678/" + rnd(68, 42), "Discord webhook URL"},
		{"key body", "MIIEowIBAAKCAQEA" + gen(b64, 48, 43) + "\n" + gen(b64, 64, 44), kindKeyBody},
		{"bare aws secret", "wJalr" + gen(b64, 35, 45), "AWS secret access key"},
		{"pem one line", strings.ReplaceAll(pemBlock("RSA ", " "), "MIIEow", "MIIEowIBAAKCAQEA"), "private key block"},
		{"pem legacy encrypted one line", strings.Join([]string{"-----BEGIN RSA PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED",
			"DEK-Info: AES-128-CBC," + hexs(32, 46), gen(b64, 64, 47)}, " "), "private key block"},
	}
}

func TestScanFindsEachKind(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range kindCases() {
		seen[tc.kind] = true
		t.Run(tc.name, func(t *testing.T) {
			got := Scan(tc.text)
			if len(got) != 1 || got[0].Kind != tc.kind {
				t.Errorf("Scan(%q) = %+v, want one %q", tc.text, got, tc.kind)
			}
		})
	}
	// Every hand-made kind has its case; the kept rules have theirs in
	// TestKeptRules.
	hand := []string{kindKeyBody}
	for _, p := range buildTable() {
		hand = append(hand, p.kind)
	}
	for _, kind := range hand {
		if !seen[kind] {
			t.Errorf("kind %q has no test case", kind)
		}
	}
}

// proseCases returns texts that look close to credentials but are not.
func proseCases() []string {
	return []string{
		"the password policy requires 12 characters",
		"set token via env",
		"we use sk-learn for the model, and scikit-learn-contrib too",
		"use `password=` in the form",
		"Password: must be at least 12 characters",
		"the secret: keep it simple",
		"The password is stored in 1Password; the token rotates weekly.",
		"password: <password>",
		"password=${DB_PASSWORD}",
		"password=$DB_PASSWORD",
		"password=%s",
		`password: "{{ .Values.db.password }}"`,
		"password: !vault |",
		"password: changeme",
		"password: null",
		"password = ''",
		"password: ********",
		"token: xxxxxxxxxxxx",
		"api_key: YOUR_API_KEY_HERE",
		`api_key: "your-api-key"`,
		"password = cfg.Password",
		`token = os.Getenv("GITHUB_TOKEN")`,
		"secret = secrets.token_hex(32)",
		"max_tokens: 4096",
		"token_limit = 100000",
		"token: 12345678",
		"tokens=abc123def456",
		"bypass=abc123def",
		"PWD=/home/user/src",
		"TOKEN_TYPE=Bearer",
		`Password string ` + "`" + `json:"password" validate:"required,min=8"` + "`",
		"Bearer tokens are used for service-to-service authentication",
		"Authorization: Bearer <token>",
		"Authorization: Bearer $TOKEN",
		"Authorization: Basic <base64>",
		"postgres://user:password@localhost/db",
		"postgres://postgres:postgres@localhost:5432/db",
		"mysql://root:<pass>@localhost",
		"https://example.com:8080/path@v2",
		"git@github.com:org/repo.git and ssh://git@github.com/org/repo",
		"We travel to Asia next week; ASIA-PACIFIC region",
		"the task-based-scheduler-component is risk-free",
		"ghp_ marks GitHub personal tokens, github_pat_ the fine-grained ones",
		"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"AKIAIOSFODNN7EXAMPLE is the key in the AWS docs",
		"-----BEGIN RSA PRIVATE KEY----- is the header to look for",
		"eyJ is how base64 JSON starts",
		b64url(`{"foo":"bar"}`) + "." + b64url(`{"foo":"bar"}`) + ".c2lnbmF0dXJl",
		"sk_live_ keys must never be committed",
		"xoxb- tokens are bot tokens",
		"hooks.slack.com/services/... is where webhooks go",
		"AccountKey=<key>",
		"SKU12345 and SK-1234",
		"npm_config_registry=https://registry.npmjs.org",
		"HEROKU_API_KEY=$HEROKU_API_KEY",
	}
}

func TestScanIgnoresProseAndPlaceholders(t *testing.T) {
	for _, text := range proseCases() {
		t.Run(text, func(t *testing.T) {
			if got := Scan(text); len(got) != 0 {
				t.Errorf("Scan(%q) = %+v, want nothing", text, got)
			}
		})
	}
}

func TestScanPositions(t *testing.T) {
	ghp := "ghp_" + rnd(36, 50)
	text := "# notes\r\n" +
		"héllo password=hunter22 and " + ghp + "\n" +
		"\n" +
		"\ttoken=" + ghp + "\n" +
		pemBlock("EC ", "\n")
	got := Scan(text)
	want := []Finding{
		{Kind: "password assignment", Line: 2, Column: 8, Redacted: "pass********"},
		{Kind: "GitHub token", Line: 2, Column: 30, Redacted: "ghp_********"},
		{Kind: "GitHub token", Line: 4, Column: 8, Redacted: "ghp_********"},
		{Kind: "private key block", Line: 5, Column: 1, Redacted: "----********"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Scan findings mismatch (-want +got):\n%s", diff)
	}
}

func TestScanOverlapKeepsMostSpecific(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"token assignment holding a github token", "token=ghp_" + rnd(36, 51), []string{"GitHub token"}},
		{"bearer holding a jwt", "Authorization: Bearer " + jwtToken(), []string{"JSON Web Token"}},
		{"aws secret is not also a secret assignment", "aws_secret_access_key=" + gen(b64, 40, 52), []string{"AWS secret access key"}},
		{"service account json", `{"private_key_id": "` + hexs(40, 53) + `", "private_key": "` + pemBlock("", `\n`) + `"}`,
			[]string{"GCP service account key", "private key block"}},
		{"same token twice", "a AKIA" + strings.ToUpper(rnd(16, 54)) + " b AKIA" + strings.ToUpper(rnd(16, 54)),
			[]string{"AWS access key ID", "AWS access key ID"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Scan(tc.text) {
				got = append(got, f.Kind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("kinds mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abcdefghijklmnop", "abcd********"},
		{"abcdef", "abcd**"},
		{"abcd", "abcd"},
		{"pässwörd=geheim1", "päss********"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := redact(tc.in); got != tc.want {
				t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestScanEmpty(t *testing.T) {
	if got := Scan(""); got != nil {
		t.Errorf("Scan(\"\") = %+v, want nil", got)
	}
}
