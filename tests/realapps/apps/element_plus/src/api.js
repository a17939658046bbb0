// The REST API json-server serves under /api (list filters as query parameters: name_like, _sort).
async function call(method, path, body) {
  const response = await fetch(`/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.json();
}

export const api = {
  list: (resource, query = {}) => call('GET', `/${resource}?${new URLSearchParams(query)}`),
  get: (resource, id) => call('GET', `/${resource}/${id}`),
  create: (resource, values) => call('POST', `/${resource}`, values),
  update: (resource, id, values) => call('PATCH', `/${resource}/${id}`, values),
  remove: (resource, id) => call('DELETE', `/${resource}/${id}`),
};

export const CATEGORIES = [
  { value: 'raw_material', label: '原材料' },
  { value: 'parts', label: '零部件' },
  { value: 'packaging', label: '包装材料' },
  { value: 'logistics', label: '物流服务' },
];

// Element Plus' own example of a formatted input: 1250000 shows as "¥ 1,250,000", the model keeps the digits.
export const money = (value) => (value === '' || value == null ? '' : `¥ ${value}`.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
export const unmoney = (text) => `${text}`.replace(/¥\s?|(,*)/g, '');
