// 订单: the order list; a pending order is approved from its row (审核, then the Popconfirm's 确定), which
// PATCHes its status.
import { List, useTable } from '@refinedev/antd';
import { useMany, useUpdate } from '@refinedev/core';
import { Button, Popconfirm, Table, Tag } from 'antd';
import { grouped } from './customers';

const STATUS = { pending: <Tag color="orange">待审核</Tag>, approved: <Tag color="green">已通过</Tag> };

export const OrderList = () => {
  const { tableProps } = useTable({ syncWithLocation: false, sorters: { initial: [{ field: 'id', order: 'asc' }] } });
  const ids = [...new Set((tableProps.dataSource ?? []).map((order) => order.customer_id))];
  const { result: customers } = useMany({ resource: 'customers', ids, queryOptions: { enabled: ids.length > 0 } });
  const { mutate } = useUpdate();
  const approve = (order) => mutate({
    resource: 'orders', id: order.id, values: { status: 'approved' },
    successNotification: { message: `订单 ${order.number} 已审核通过`, type: 'success' },
  });
  return (
    <List>
      <Table {...tableProps} rowKey="id">
        <Table.Column dataIndex="number" title="订单号" />
        <Table.Column dataIndex="customer_id" title="客户"
                      render={(id) => customers.data.find((customer) => customer.id === id)?.name ?? ''} />
        <Table.Column dataIndex="amount" title="金额（元）" align="right"
                      render={(value) => grouped(Number(value).toFixed(2).replace(/\.00$/, ''))} />
        <Table.Column dataIndex="status" title="状态" render={(value) => STATUS[value]} />
        <Table.Column title="操作" dataIndex="actions" render={(_, order) => order.status === 'pending' && (
          <Popconfirm title="确认审核通过该订单？" onConfirm={() => approve(order)}>
            <Button size="small" type="link">审核</Button>
          </Popconfirm>
        )} />
      </Table>
    </List>
  );
};
