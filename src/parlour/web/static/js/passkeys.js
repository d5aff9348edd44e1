// The player page's passkeys (decision 0064): "Add a passkey" and "Sign in with a passkey" ask the
// server for options, hand them to the browser's own prompt, and send its answer back. Nothing here
// is secret: the challenge is single-use and the server checks everything.
"use strict";

const status = document.getElementById("passkey-status");

function say(text) {
  if (status) status.textContent = text || "";
}

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// Browsers that predate the JSON helpers (PublicKeyCredential.parse…FromJSON, credential.toJSON) get
// the same conversions by hand.
function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((item) => ({ ...item, id: fromBase64url(item.id) })),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((item) => ({ ...item, id: fromBase64url(item.id) })),
  };
}

function answer(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: { clientDataJSON: toBase64url(response.clientDataJSON) },
  };
  if (response.attestationObject) {
    json.response.attestationObject = toBase64url(response.attestationObject);
    json.response.transports = response.getTransports ? response.getTransports() : [];
  } else {
    json.response.authenticatorData = toBase64url(response.authenticatorData);
    json.response.signature = toBase64url(response.signature);
    if (response.userHandle) json.response.userHandle = toBase64url(response.userHandle);
  }
  return json;
}

async function post(address, body) {
  const reply = await fetch(address, {
    method: "POST",
    credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = {};
  try {
    data = await reply.json();
  } catch {
    data = {};
  }
  if (!reply.ok) throw new Error(data.message || `${reply.status}`);
  return data;
}

async function addPasskey() {
  const options = await post("/api/passkeys/register/options");
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) });
  await post("/api/passkeys/register", answer(credential));
  location.assign("/player?saved=passkey-added");
}

async function signIn() {
  const options = await post("/api/passkeys/sign-in/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) });
  await post("/api/passkeys/sign-in", answer(credential));
  location.assign("/player?saved=signed-in");
}

function wire(action, run) {
  const button = document.querySelector(`[data-action="${action}"]`);
  if (!button) return;
  button.addEventListener("click", async () => {
    if (!window.PublicKeyCredential || !navigator.credentials) {
      say(status?.dataset.unsupported);
      return;
    }
    button.disabled = true;
    say("");
    try {
      await run();
    } catch (error) {
      // The person closing the browser's prompt is no error to explain.
      say(error && error.name === "NotAllowedError" ? status?.dataset.cancelled : error.message);
    } finally {
      button.disabled = false;
    }
  });
}

wire("add-passkey", addPasskey);
wire("sign-in-passkey", signIn);
