-- Flux HelmRelease (helm.toolkit.fluxcd.io/v2beta1).

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

-- Secrets: spec.valuesFrom[] of kind Secret, spec.chart.spec.verify.secretRef,
-- spec.kubeConfig.secretRef; ServiceAccount: spec.serviceAccountName (even "default");
-- ConfigMaps: spec.valuesFrom[] of kind ConfigMap. Listed Secrets, ServiceAccounts, ConfigMaps,
-- in the release's namespace. The chart source (spec.chart.spec.sourceRef: a HelmRepository,
-- GitRepository or Bucket) is NOT reported as a dependency. A secretRef is only skipped when its
-- name is the empty string; a secretRef without a name fails (see remember).
function GetDependencies(desiredObj)
  local spec = desiredObj.spec
  local secrets, accounts, configMaps = orderedSet(), orderedSet(), orderedSet()

  if spec.valuesFrom ~= nil then
    local valuesFrom = spec.valuesFrom
    for i = 1, #valuesFrom do
      local source = valuesFrom[i]
      if source.kind == 'Secret' then
        remember(secrets, source.name)
      end
      if source.kind == 'ConfigMap' then
        remember(configMaps, source.name)
      end
    end
  end

  local chart = spec.chart
  if chart ~= nil and chart.spec ~= nil and chart.spec.verify ~= nil
      and chart.spec.verify.secretRef ~= nil and chart.spec.verify.secretRef.name ~= '' then
    remember(secrets, chart.spec.verify.secretRef.name)
  end

  local kubeConfig = spec.kubeConfig
  if kubeConfig ~= nil and kubeConfig.secretRef ~= nil and kubeConfig.secretRef.name ~= '' then
    remember(secrets, kubeConfig.secretRef.name)
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
  emit('ConfigMap', configMaps)
  return refs
end
