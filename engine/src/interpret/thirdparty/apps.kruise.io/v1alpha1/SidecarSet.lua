-- OpenKruise SidecarSet (apps.kruise.io/v1alpha1, cluster-scoped): injects sidecar containers
-- into matching pods; it runs no pods of its own.

-- No replicas of its own: always 0 and no requirements.
function GetReplicas(obj)
  return 0, nil
end

-- References made by the sidecar containers and the SidecarSet's volumes. Only these sources
-- count, in this order:
--   per container: env[].valueFrom.configMapKeyRef / secretKeyRef, then
--                  envFrom[].configMapRef / secretRef;
--   per volume:    configMap.name, secret.secretName, projected.sources[].configMap / secret.
-- Init containers, imagePullSecrets and other volume types are not looked at. Names are not
-- checked and not de-duplicated (a nil or empty name still yields an entry), and the namespace
-- is the SidecarSet's own metadata.namespace, normally absent since the kind is cluster-scoped.
function GetDependencies(desiredObj)
  local refs = {}
  local spec = desiredObj.spec
  if not spec then
    return refs
  end

  local function add(kind, name)
    local meta = desiredObj.metadata
    refs[#refs + 1] = {
      apiVersion = "v1",
      kind = kind,
      name = name,
      namespace = meta and meta.namespace,
    }
  end

  local containers = spec.containers
  if containers then
    for i = 1, #containers do
      local container = containers[i]
      local env = container.env
      if env then
        for j = 1, #env do
          local from = env[j].valueFrom
          if from then
            if from.configMapKeyRef then
              add("ConfigMap", from.configMapKeyRef.name)
            end
            if from.secretKeyRef then
              add("Secret", from.secretKeyRef.name)
            end
          end
        end
      end
      local envFrom = container.envFrom
      if envFrom then
        for j = 1, #envFrom do
          local source = envFrom[j]
          if source.configMapRef then
            add("ConfigMap", source.configMapRef.name)
          end
          if source.secretRef then
            add("Secret", source.secretRef.name)
          end
        end
      end
    end
  end

  local volumes = spec.volumes
  if volumes then
    for i = 1, #volumes do
      local volume = volumes[i]
      if volume.configMap then
        add("ConfigMap", volume.configMap.name)
      end
      if volume.secret then
        add("Secret", volume.secret.secretName)
      end
      local projected = volume.projected
      if projected and projected.sources then
        local sources = projected.sources
        for j = 1, #sources do
          local source = sources[j]
          if source.configMap then
            add("ConfigMap", source.configMap.name)
          end
          if source.secret then
            add("Secret", source.secret.name)
          end
        end
      end
    end
  end

  return refs
end
