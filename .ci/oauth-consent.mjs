// The person in the browser for the conformance suite's authorization-server
// scenarios (.ci/conformance.sh, docs/conformance.md):
//   node oauth-consent.mjs register ISSUER REDIRECT_URI   prints a client_id
//   node oauth-consent.mjs consent AUTHORIZE_URL BDN_TOKEN
// "consent" opens the consent page of bourdon's built-in authorization server,
// answers it with the member's token (with the page's CSRF cookie and field)
// and follows the redirect to the suite's callback server.
const [cmd, a, b] = process.argv.slice(2);
if (cmd === "register") {
  const res = await fetch(a + "/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [b], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], client_name: "MCP conformance suite" }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
  console.log(body.client_id);
} else if (cmd === "consent") {
  const page = await fetch(a, { redirect: "manual" });
  const html = await page.text();
  const cookie = (page.headers.get("set-cookie") || "").split(";")[0];
  const field = (name) => (html.match(new RegExp(`name="${name}" value="([^"]+)"`)) || [])[1];
  if (page.status !== 200 || !cookie || !field("request_id")) throw new Error(`consent page: ${page.status} ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ request_id: field("request_id"), csrf: field("csrf"), action: "approve", member_token: b });
  const answer = await fetch(new URL("/authorize", a), { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: form });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`consent answer: ${answer.status} ${await answer.text()}`);
  await fetch(location);
} else {
  throw new Error("usage: oauth-consent.mjs register ISSUER REDIRECT_URI | consent AUTHORIZE_URL BDN_TOKEN");
}
