// 客户: the list with its search form and row buttons, and one form for creating and editing, using every field
// widget a customer record needs — Select (single, multiple, and one searching the server as you type),
// DatePicker, an InputNumber that groups thousands, Switch, and Form.List rows for the contacts.
import { Create, DeleteButton, Edit, EditButton, List, useForm, useSelect, useTable } from '@refinedev/antd';
import { useList } from '@refinedev/core';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Switch, Table, Tag } from 'antd';
import dayjs from 'dayjs';

export const LEVELS = [
  { value: 'regular', label: '普通' },
  { value: 'silver', label: '白银' },
  { value: 'gold', label: '黄金' },
  { value: 'diamond', label: '钻石' },
];

// antd's own example of a grouped InputNumber: 13250 shows as "13,250", the form keeps the number.
export const grouped = (value) => `${value ?? ''}`.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const ungrouped = (text) => `${text ?? ''}`.replace(/,/g, '');

const CustomerFields = ({ record }) => {
  const { selectProps: tagProps } = useSelect({
    resource: 'tags', optionLabel: 'name', optionValue: 'id', pagination: { pageSize: 50 },
  });
  // Thirty cities: the list shows the first ten, typing asks the server (name_like) for the rest.
  const { selectProps: cityProps } = useSelect({
    resource: 'cities', optionLabel: 'name', optionValue: 'id', defaultValue: record?.city_id,
    onSearch: (value) => [{ field: 'name', operator: 'contains', value }],
  });
  return (
    <>
      <Form.Item label="客户名称" name="name" rules={[{ required: true, message: '请输入客户名称' }]}>
        <Input />
      </Form.Item>
      <Form.Item label="客户等级" name="level" rules={[{ required: true, message: '请选择客户等级' }]}>
        <Select options={LEVELS} placeholder="请选择" />
      </Form.Item>
      <Form.Item label="标签" name="tag_ids">
        <Select mode="multiple" placeholder="请选择标签" {...tagProps} />
      </Form.Item>
      <Form.Item label="所在城市" name="city_id" rules={[{ required: true, message: '请选择所在城市' }]}>
        <Select placeholder="输入城市名搜索" {...cityProps} />
      </Form.Item>
      <Form.Item label="签约日期" name="signed_on" getValueProps={(value) => ({ value: value ? dayjs(value) : undefined })}
                 normalize={(value) => (value ? value.format('YYYY-MM-DD') : null)}>
        <DatePicker />
      </Form.Item>
      <Form.Item label="授信额度（元）" name="credit">
        <InputNumber min={0} style={{ width: 220 }} formatter={grouped} parser={ungrouped} />
      </Form.Item>
      <Form.Item label="重点客户" name="key_account" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="联系人">
        <Form.List name="contacts">
          {(fields, { add, remove }) => (
            <>
              {fields.map(({ key, name }) => (
                <Space key={key} align="baseline">
                  <Form.Item name={[name, 'name']} rules={[{ required: true, message: '请输入姓名' }]}>
                    <Input placeholder="姓名" />
                  </Form.Item>
                  <Form.Item name={[name, 'phone']}>
                    <Input placeholder="电话" />
                  </Form.Item>
                  <MinusCircleOutlined aria-label="删除此联系人" onClick={() => remove(name)} />
                </Space>
              ))}
              <Button type="dashed" onClick={() => add()} icon={<PlusOutlined />}>添加联系人</Button>
            </>
          )}
        </Form.List>
      </Form.Item>
    </>
  );
};

export const CustomerCreate = () => {
  const { formProps, saveButtonProps } = useForm({ redirect: 'list' });
  return (
    <Create saveButtonProps={saveButtonProps}>
      <Form {...formProps} layout="vertical" initialValues={{ key_account: false }}>
        <CustomerFields />
      </Form>
    </Create>
  );
};

export const CustomerEdit = () => {
  const { formProps, saveButtonProps, query } = useForm({ redirect: 'list' });
  return (
    <Edit saveButtonProps={saveButtonProps}>
      <Form {...formProps} layout="vertical">
        <CustomerFields record={query?.data?.data} />
      </Form>
    </Edit>
  );
};

export const CustomerList = () => {
  const { tableProps, searchFormProps } = useTable({
    syncWithLocation: false,
    sorters: { initial: [{ field: 'id', order: 'asc' }] },
    onSearch: ({ name }) => [{ field: 'name', operator: 'contains', value: name || undefined }],
  });
  const { result: cities } = useList({ resource: 'cities', pagination: { pageSize: 100 } });
  const cityName = (id) => cities.data.find((city) => city.id === id)?.name ?? '';
  return (
    <List>
      <Form layout="inline" {...searchFormProps} style={{ marginBottom: 16 }}>
        <Form.Item label="客户名称" name="name">
          <Input placeholder="输入客户名称" allowClear />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">查询</Button>
        </Form.Item>
      </Form>
      <Table {...tableProps} rowKey="id"
             pagination={{ ...tableProps.pagination, showTotal: (total) => `共 ${total} 条` }}>
        <Table.Column dataIndex="name" title="客户名称" />
        <Table.Column dataIndex="level" title="客户等级"
                      render={(value) => LEVELS.find((level) => level.value === value)?.label} />
        <Table.Column dataIndex="city_id" title="所在城市" render={cityName} />
        <Table.Column dataIndex="credit" title="授信额度（元）" align="right" render={grouped} />
        <Table.Column dataIndex="key_account" title="重点客户"
                      render={(value) => (value ? <Tag color="gold">重点</Tag> : '—')} />
        <Table.Column title="操作" dataIndex="actions" render={(_, record) => (
          <Space>
            <EditButton size="small" recordItemId={record.id} />
            <DeleteButton size="small" recordItemId={record.id} />
          </Space>
        )} />
      </Table>
    </List>
  );
};
