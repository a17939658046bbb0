// Refine's texts in Simplified Chinese: the deployer's translation table, served through Refine's i18nProvider
// (its buttons, page titles and notifications ask it by key). "{{resource}}" is filled in as Refine passes it.
const zhCN = {
  'buttons.create': '新建',
  'buttons.save': '保存',
  'buttons.edit': '编辑',
  'buttons.delete': '删除',
  'buttons.confirm': '确定要删除吗？',
  'buttons.cancel': '取消',
  'buttons.list': '列表',
  'buttons.show': '查看',
  'buttons.refresh': '刷新',
  'buttons.filter': '筛选',
  'buttons.clear': '清除',
  'buttons.undo': '撤销',
  'notifications.success': '操作成功',
  'notifications.error': '操作失败（状态码：{{statusCode}}）',
  'notifications.createSuccess': '已创建{{resource}}',
  'notifications.createError': '创建{{resource}}失败（状态码：{{statusCode}}）',
  'notifications.editSuccess': '已保存{{resource}}',
  'notifications.editError': '保存{{resource}}失败（状态码：{{statusCode}}）',
  'notifications.deleteSuccess': '已删除{{resource}}',
  'notifications.deleteError': '删除{{resource}}失败（状态码：{{statusCode}}）',
  'warnWhenUnsavedChanges': '有尚未保存的修改，确定离开吗？',
  'customers.customers': '客户',
  'customers.titles.list': '客户',
  'customers.titles.create': '新建客户',
  'customers.titles.edit': '编辑客户',
  'orders.orders': '订单',
  'orders.titles.list': '订单',
};

export const i18nProvider = {
  translate: (key, options, defaultMessage) => {
    const fallback = typeof options === 'string' ? options : defaultMessage;
    const text = zhCN[key] ?? fallback ?? key;
    const values = typeof options === 'object' && options !== null ? options : {};
    return text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(values[name] ?? ''));
  },
  changeLocale: async () => {},
  getLocale: () => 'zh-CN',
};
