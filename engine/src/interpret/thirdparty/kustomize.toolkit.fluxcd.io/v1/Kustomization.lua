-- Flux Kustomization (kustomize.toolkit.fluxcd.io/v1).

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

-- Secrets: spec.decryption.secretRef, spec.kubeConfig.secretRef (skipped only when the name is
-- ""); ServiceAccount: spec.serviceAccountName (even "default"). Secrets first, then the
-- ServiceAccount, in the Kustomization's namespace. The source (spec.sourceRef) is not reported.
function GetDependencies(desiredObj)
  local spec = desiredObj.spec
  local secrets, accounts = orderedSet(), orderedSet()

  for _, field in ipairs({ 'decryption', 'kubeConfig' }) do
    local holder = spec[field]
    if holder ~= nil and holder.secretRef ~= nil and holder.secretRef.name ~= '' then
      remember(secrets, holder.secretRef.name)
    end
  end

  if spec.serviceAccountName ~= nil and spec.serviceAccountName ~= '' then
    remember(accounts, spec.serviceAccountName)
  end

  local refs = {}
  local function emit(kind, set)
    for _, name in ipairs(set.list) do
      refs[#refs + 1] = {
        apiVersion = 'v1',
        kind = kind,
        name = name,
        namespace = desiredObj.metadata.namespace,
      }
    end
  end
  emit('Secret', secrets)
  emit('ServiceAccount', accounts)
  return refs
end
