-- Flux OCIRepository (source.toolkit.fluxcd.io/v1beta2).

-- Names kept once each, in the order first seen. A nil name is a Lua error here ("table index
-- is nil"), exactly as in Karmada's built-in script, which also uses the name as a table key.
local function orderedSet()
  return { list = {}, seen = {} }
end

local function remember(set, name)
  if not set.seen[name] then
    set.seen[name] = true
    set.list[#set.list + 1] = name
  end
end

-- A local object reference ({name = ...}) that is set. Only the empty string counts as unset:
-- a reference without a name passes and then fails in remember.
local function isSet(ref)
  return ref ~= nil and ref.name ~= ''
end

-- Secrets: spec.secretRef, spec.verify.secretRef, spec.certSecretRef; ServiceAccount:
-- spec.serviceAccountName (even "default"). Secrets first, then the ServiceAccount, in the
-- repository's namespace.
--
-- Quirk kept on purpose: the service account is skipped only when spec.serviceAccountName is
-- the empty string. When the field is absent (the usual case) Karmada's built-in script indexes
-- a table with nil and fails, so Karmada reports an error instead of dependencies; this script
-- fails the same way, with a clearer message.
function GetDependencies(desiredObj)
  local spec = desiredObj.spec
  local secrets, accounts = orderedSet(), orderedSet()
  if isSet(spec.secretRef) then
    remember(secrets, spec.secretRef.name)
  end
  if spec.verify ~= nil and isSet(spec.verify.secretRef) then
    remember(secrets, spec.verify.secretRef.name)
  end
  if isSet(spec.certSecretRef) then
    remember(secrets, spec.certSecretRef.name)
  end
  local account = spec.serviceAccountName
  if account ~= '' then
    if account == nil then
      error("OCIRepository: spec.serviceAccountName is not set (Karmada's built-in interpretation "
        .. "fails on it: table index is nil)")
    end
    remember(accounts, account)
  end

  local refs = {}
  for _, name in ipairs(secrets.list) do
    refs[#refs + 1] = {
      apiVersion = 'v1',
      kind = 'Secret',
      name = name,
      namespace = desiredObj.metadata.namespace,
    }
  end
  for _, name in ipairs(accounts.list) do
    refs[#refs + 1] = {
      apiVersion = 'v1',
      kind = 'ServiceAccount',
      name = name,
      namespace = desiredObj.metadata.namespace,
    }
  end
  return refs
end
